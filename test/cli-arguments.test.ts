import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { runCli, tempFolder } from '../support/service.js'

/** Nothing listens on port 1: any command that opens this database fails with a connection error. */
const DATABASE_DOWN = { DATABASE_URL: 'postgres://127.0.0.1:1/plants' }

describe('the CLI checks its arguments before it opens anything', () => {
  const misuses: string[][] = [
    ['token', 'frob'],
    ['token', 'create'],
    ['token', 'create', '--subject', 'dave', '--scope', 'plants:fly'],
    ['token', 'revoke', 'abc'],
    ['token', 'list', '--xml'],
    ['migrate', '--statuses'],
  ]
  for (const args of misuses) {
    test(`plantstore ${args.join(' ')} with the database down answers a usage error and exits 2`, async () => {
      const result = await runCli(args, DATABASE_DOWN)
      assert.equal(result.code, 2, result.stderr)
      assert.equal(result.stdout, '')
      assert.match(result.stderr, /^plantstore: /)
      assert.match(result.stderr, /usage: plantstore <command>/)
      assert.doesNotMatch(result.stderr, /ECONNREFUSED|connect/)
    })
  }

  test('token create without --subject on SQLite makes neither the folder nor the database', async () => {
    const folder = tempFolder()
    try {
      const result = await runCli(['token', 'create'], { DATABASE_URL: `sqlite:${join(folder.path, 'data', 'plants.db')}` })
      assert.equal(result.code, 2, result.stderr)
      assert.match(result.stderr, /--subject/)
      assert.deepEqual(readdirSync(folder.path), [])
    } finally {
      folder.remove()
    }
  })
})

describe('help and version', () => {
  for (const args of [
    ['serve', '--help'],
    ['token', '--help'],
    ['token', 'create', '--help'],
    ['migrate', '-h'],
    ['backup', '--help'],
  ]) {
    test(`plantstore ${args.join(' ')} prints the usage on standard output and exits 0, touching nothing`, async () => {
      const result = await runCli(args, DATABASE_DOWN)
      assert.equal(result.code, 0, result.stderr)
      assert.match(result.stdout, /^usage: plantstore <command>/)
      assert.equal(result.stderr, '')
    })
  }

  test('plantstore --version x refuses the extra argument with exit 2', async () => {
    const result = await runCli(['--version', 'x'], {})
    assert.equal(result.code, 2)
    assert.equal(result.stdout, '')
    assert.match(result.stderr, /^plantstore: --version takes no arguments/)
  })
})

describe('backup and restore say what is wrong', () => {
  for (const [command, option] of [
    ['backup', '--to'],
    ['restore', '--from'],
  ] as const) {
    test(`plantstore ${command} without ${option} names ${command} in its usage error`, async () => {
      const result = await runCli([command], {})
      assert.equal(result.code, 2)
      assert.match(result.stderr, new RegExp(`^plantstore: ${command} takes ${option} PATH, once`))
    })
  }

  test('backup --to a file that exists is one line naming backup, not the usage, exit 2, and the file is kept', async () => {
    const folder = tempFolder()
    try {
      const existing = join(folder.path, 'kept.db')
      writeFileSync(existing, 'mine')
      const result = await runCli(['backup', '--to', existing], { DATABASE_URL: `sqlite:${join(folder.path, 'plants.db')}` })
      assert.equal(result.code, 2, result.stderr)
      assert.equal(result.stderr, `plantstore: backup --to ${existing}: that file exists; a backup never overwrites a file\n`)
      assert.equal(readFileSync(existing, 'utf8'), 'mine')
    } finally {
      folder.remove()
    }
  })

  test('migrate --status exit codes (3: unreadable) are in the usage', async () => {
    const result = await runCli(['--help'], {})
    assert.match(result.stdout, /--status[\s\S]*exit 1 while any is pending,\s+3 when the database cannot be read/)
  })

  test('restore --from a folder says it is a folder, exits 2 and changes nothing', async () => {
    const folder = tempFolder()
    try {
      const backups = join(folder.path, 'backups')
      mkdirSync(backups)
      const database = join(folder.path, 'data', 'plants.db')
      const result = await runCli(['restore', '--from', backups], { DATABASE_URL: `sqlite:${database}` })
      assert.equal(result.code, 2, result.stderr)
      assert.equal(result.stderr, `plantstore: ${backups} is a folder: name the backup file in it\n`)
      assert.equal(existsSync(join(folder.path, 'data')), false)
    } finally {
      folder.remove()
    }
  })
})
