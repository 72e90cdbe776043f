import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { promisify } from 'node:util'
import { REPO_ROOT, tempFolder } from '../support/service.js'
import { type ServiceFixture, startFixture } from './helpers/fixture.js'

const run = promisify(execFile)
const npm = (args: string[], cwd: string) => run('npm', args, { cwd, maxBuffer: 16 * 1024 * 1024 })

/** What a user writes: the package's types must carry bigint ids to them. */
const USER_CODE = `import { createServer } from 'node:net'
import { type Plant, PlantStoreClient, PlantStoreConnectionError, PlantStoreError } from '@plantstore/client'

const [baseUrl, token] = process.argv.slice(2) as [string, string]
const client = new PlantStoreClient({ baseUrl, token })
const id: bigint = 2n ** 53n + 1n
await client.createPlant({ id, name: 'from the tarball' })
const found: Plant = await client.getPlant(id)
// @ts-expect-error an id is a bigint, never a number
if (false) await client.getPlant(9007199254740993)
const names: string[] = []
for await (const plant of client.listAll({ pageSize: 1 })) names.push(plant.name)
try {
  await client.getPlant(id + 1n)
} catch (error) {
  if (error instanceof PlantStoreError) names.push(String(error.status))
}
// No answer at all: a port nobody listens on, and a server that never answers.
const failures: unknown[] = []
const silent = createServer(() => {}).listen(0, '127.0.0.1')
await new Promise((resolve) => silent.once('listening', resolve))
const silentUrl = \`http://127.0.0.1:\${(silent.address() as { port: number }).port}\`
const calls: [string, () => Promise<unknown>][] = [
  ['refused', () => new PlantStoreClient({ baseUrl: 'http://127.0.0.1:9', token }).getPlant(1n)],
  ['timeout, create', () => new PlantStoreClient({ baseUrl: silentUrl, token, timeoutMs: 300 }).createPlant({ id: 1n, name: 'x' })],
  ['timeout, keyed create', () => new PlantStoreClient({ baseUrl: silentUrl, token, timeoutMs: 300 }).createPlant({ id: 1n, name: 'x' }, { idempotencyKey: 'k' })],
]
for (const [what, call] of calls) {
  try {
    await call()
  } catch (error) {
    if (error instanceof PlantStoreConnectionError && error instanceof PlantStoreError) {
      failures.push({ what, status: error.status, retryable: error.retryable, cause: error.cause !== undefined, timeout: /no answer within 300 ms/.test(error.message) })
    } else failures.push({ what, other: String(error) })
  }
}
silent.close()
console.log(JSON.stringify({ found, names, failures }))
`

let fx: ServiceFixture
const scratch = tempFolder()
before(async () => {
  fx = await startFixture('sqlite')
})
after(async () => {
  await fx.close()
  scratch.remove()
})

test('the packed @plantstore/client installs into a scratch project and works from there, types and all', async () => {
  // The build ran before the suite (npm test builds first); the package's prepack would build it
  // again, rewriting packages/client/dist while other test files import it.
  const pack = ['pack', '--workspace', 'packages/client', '--ignore-scripts', '--pack-destination', scratch.path, '--json']
  const packed = JSON.parse((await npm(pack, REPO_ROOT)).stdout) as {
    filename: string
    files: { path: string }[]
  }[]
  const tarball = packed[0]
  assert.ok(tarball)
  assert.ok(tarball.files.some((file) => file.path === 'dist/index.d.ts'))
  assert.ok(!tarball.files.some((file) => file.path.startsWith('src/')), 'only the built files are packed')

  writeFileSync(
    join(scratch.path, 'package.json'),
    JSON.stringify({ name: 'scratch', private: true, type: 'module', dependencies: { '@plantstore/client': `file:${tarball.filename}` } }),
  )
  await npm(['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'], scratch.path)
  assert.deepEqual(
    readdirSync(join(scratch.path, 'node_modules'))
      .filter((name) => !name.startsWith('.'))
      .sort(),
    ['@plantstore', 'lossless-json'],
  )

  writeFileSync(join(scratch.path, 'use.ts'), USER_CODE)
  const tsc = join(REPO_ROOT, 'node_modules', '.bin', 'tsc')
  const types = join(REPO_ROOT, 'node_modules', '@types')
  const compiled = await run(
    tsc,
    [
      '--strict',
      '--target',
      'ES2022',
      '--module',
      'nodenext',
      '--lib',
      'ES2023,DOM',
      '--typeRoots',
      types,
      '--types',
      'node',
      '--skipLibCheck',
      'use.ts',
    ],
    { cwd: scratch.path },
  ).catch((error: { stdout: string }) => assert.fail(`the user's code does not type-check:\n${error.stdout}`))
  assert.equal(compiled.stdout, '')

  const token = await fx.token('tarball-user')
  const { stdout } = await run(process.execPath, ['use.js', fx.service.url, token], { cwd: scratch.path })
  assert.deepEqual(JSON.parse(stdout), {
    found: { name: 'from the tarball' },
    names: ['from the tarball', '404'],
    failures: [
      { what: 'refused', status: 0, retryable: true, cause: true, timeout: false },
      { what: 'timeout, create', status: 0, retryable: false, cause: true, timeout: true },
      { what: 'timeout, keyed create', status: 0, retryable: true, cause: true, timeout: true },
    ],
  })
})
