import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { test } from 'node:test'
import { REPO_ROOT } from '../support/service.js'

interface LockEntry {
  dev?: boolean
  engines?: { node?: string } | string[]
}

const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string }
  satisfies(version: string, range: string): boolean
}

test('docs/running.md names every installed runtime package that asks for a newer Node.js than package.json admits', () => {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }
  const oldest = semver.minVersion(manifest.engines.node).version
  const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> }
  const newer = Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && entry.dev !== true)
    .filter(
      ([, entry]) => !Array.isArray(entry.engines) && entry.engines?.node !== undefined && !semver.satisfies(oldest, entry.engines.node),
    )
    .map(([path]) => path.replace(/^.*node_modules\//, ''))
  assert.ok(newer.length > 0, `Node.js ${oldest}: every runtime package admits it; then the EBADENGINE words can go`)
  const section = /## Node\.js versions\n([\s\S]*?)(\n## |$)/.exec(readFileSync(join(REPO_ROOT, 'docs', 'running.md'), 'utf8'))?.[1] ?? ''
  for (const name of newer) assert.ok(section.includes(`\`${name}\``), `docs/running.md's Node.js versions names ${name}`)
  assert.doesNotMatch(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'), /EBADENGINE` for dev packages it never loads/)
})
