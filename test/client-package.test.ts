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
const USER_CODE = `import { type Plant, PlantStoreClient, PlantStoreError } from '@plantstore/client'

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
console.log(JSON.stringify({ found, names }))
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
  const packed = JSON.parse(
    (await npm(['pack', '--workspace', 'packages/client', '--pack-destination', scratch.path, '--json'], REPO_ROOT)).stdout,
  ) as {
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
  assert.deepEqual(JSON.parse(stdout), { found: { name: 'from the tarball' }, names: ['from the tarball', '404'] })
})
