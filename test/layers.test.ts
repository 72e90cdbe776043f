import assert from 'node:assert/strict'
import { readFileSync, readdirSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import { test } from 'node:test'
import { REPO_ROOT } from '../support/service.js'

/**
 * src/'s folders from the top down: a folder may import only from folders below its own row,
 * so that layers point one way and no two folders import each other. '.' holds the entry
 * points and the composition root (app.ts).
 */
const LAYERS = [
  ['.'],
  ['routes'],
  // The backup and copy commands check and carry the key that seals webhook secrets.
  ['backup', 'copy'],
  ['auth', 'webhooks'],
  // Litestream beside the SQLite store: the replica checked at start, its lag read.
  ['lifecycle', 'replication'],
  ['http'],
  ['store/sqlite', 'store/postgres'],
  ['store/shared'],
  ['store'],
  ['observability'],
  ['api'],
  ['config'],
]
const SRC = join(REPO_ROOT, 'src')
const layerOf = (folder: string) => LAYERS.findIndex((row) => row.includes(folder))

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(folder, entry.name)) : entry.name.endsWith('.ts') ? [join(folder, entry.name)] : [],
  )
}

/** Every relative import of src/, as [importing folder, imported folder, where]. */
function folderImports(): [string, string, string][] {
  return sourceFiles(SRC).flatMap((file) => {
    const from = relative(SRC, dirname(file)) || '.'
    return [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map(
      ([, specifier]) =>
        [from, relative(SRC, dirname(normalize(join(dirname(file), specifier as string)))) || '.', relative(SRC, file)] as [
          string,
          string,
          string,
        ],
    )
  })
}

test('every folder of src/ has a row in the layers', () => {
  const folders = new Set(folderImports().flatMap(([from, to]) => [from, to]))
  assert.deepEqual(
    [...folders].filter((folder) => layerOf(folder) === -1),
    [],
  )
})

test('no import of src/ runs back up a layer or across to a folder of the same row', () => {
  const wrong = folderImports()
    .filter(([from, to]) => from !== to && layerOf(to) <= layerOf(from))
    .map(([from, to, where]) => `${where}: ${from} → ${to}`)
  assert.deepEqual(wrong, [])
})

test('the API contract (src/api/) imports nothing else of the app', () => {
  assert.deepEqual(
    folderImports()
      .filter(([from, to]) => from === 'api' && to !== 'api')
      .map(([, , where]) => where),
    [],
  )
})
