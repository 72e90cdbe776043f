import assert from 'node:assert/strict'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { freshDatabase } from '../support/databases.js'
import { REPO_ROOT, runCli, tempFolder } from '../support/service.js'

describe('configuration', () => {
  const badSettings: [string, Record<string, string>][] = [
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/plants' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['RATE_LIMIT', { RATE_LIMIT: '-5' }],
    ['WORKERS', { WORKERS: '0' }],
    ['WORKERS', { WORKERS: 'many' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'the proxy' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/33' }],
    ['CORS_ORIGINS', { CORS_ORIGINS: 'app.example.com' }],
    ['CORS_ORIGINS', { CORS_ORIGINS: 'https://app.example.com/path' }],
    ['IDEMPOTENCY_TTL', { IDEMPOTENCY_TTL: '3w' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'https://plants.example.com/api' }],
    ['WEBHOOK_TIMEOUT_MS', { WEBHOOK_TIMEOUT_MS: '60000' }],
    ['WEBHOOK_RETRY_DELAYS', { WEBHOOK_RETRY_DELAYS: '5s,soon' }],
    ['WEBHOOK_ALLOWED_NETWORKS', { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1' }],
    ['WEBHOOK_SECRET_KEY', { WEBHOOK_SECRET_KEY: 'c2hvcnQ=' }],
    ['WEBHOOK_RETENTION', { WEBHOOK_RETENTION: 'forever' }],
    ['DATABASE_READ_URL', { DATABASE_READ_URL: 'sqlite:./replica.db' }],
    ['WEBHOOK_SECRET_OVERLAP', { WEBHOOK_SECRET_OVERLAP: 'a day' }],
    ['WEBHOOK_DISABLE_AFTER', { WEBHOOK_DISABLE_AFTER: '-5d' }],
    ['PG_PREPARED_STATEMENTS', { DATABASE_URL: 'postgres://127.0.0.1:1/plants', PG_PREPARED_STATEMENTS: 'no' }],
    ['DATABASE_READ_URL', { DATABASE_URL: 'postgres://127.0.0.1:1/plants', DATABASE_READ_URL: 'mysql://replica/plants' }],
  ]
  // Forms Litestream 0.3.13 reads as another folder than a file URL means (it neither decodes
  // percent signs nor drops a host, a query or a fragment, and resolves file:rel in its own directory).
  for (const url of [
    'file:///srv/my%20replica',
    'file://localhost/srv/replica',
    'file:replica',
    'file:./replica',
    'FILE:///srv/replica',
    'File:///srv/replica',
    'file:///srv/replica?x=1',
    'file:///srv/replica#frag',
  ]) {
    test(`LITESTREAM_REPLICA_URL=${url} stops serve with one line saying to write file:///ABSOLUTE/PATH`, async () => {
      const folder = tempFolder()
      try {
        const result = await runCli(['serve'], { DATABASE_URL: `sqlite:${folder.path}/plantstore.db`, LITESTREAM_REPLICA_URL: url })
        assert.notEqual(result.code, 0)
        const lines = result.stderr.trim().split('\n')
        assert.equal(lines.length, 1, result.stderr)
        assert.match(lines[0] ?? '', /LITESTREAM_REPLICA_URL: .*write file:\/\/\/ABSOLUTE\/PATH/)
      } finally {
        folder.remove()
      }
    })
  }
  // A file:/// URL naming a regular file, or a path beneath one: Litestream cannot make its folder there.
  for (const [name, beneath] of [
    ['a regular file', ''],
    ['a path beneath a regular file', '/plantstore'],
  ]) {
    test(`LITESTREAM_REPLICA_URL naming ${name} stops serve with one line saying it is not a folder`, async () => {
      const folder = tempFolder()
      try {
        const file = join(folder.path, 'replica')
        writeFileSync(file, 'not a folder\n')
        const replica = `${file}${beneath}`
        const result = await runCli(['serve'], {
          DATABASE_URL: `sqlite:${folder.path}/plantstore.db`,
          LITESTREAM_REPLICA_URL: `file://${replica}`,
        })
        assert.notEqual(result.code, 0)
        const lines = result.stderr.trim().split('\n')
        assert.equal(lines.length, 1, result.stderr)
        assert.equal(
          lines[0],
          `plantstore: cannot start: LITESTREAM_REPLICA_URL: the replica ${replica} cannot be written: ${file} is a file, not a folder; nothing would be replicated`,
        )
      } finally {
        folder.remove()
      }
    })
  }
  for (const [variable, env] of badSettings) {
    test(`${variable}=${env[variable]} stops serve with a non-zero exit and one line naming ${variable}`, async () => {
      const result = await runCli(['serve'], env)
      assert.notEqual(result.code, 0)
      const lines = result.stderr.trim().split('\n')
      assert.equal(lines.length, 1, result.stderr)
      assert.match(lines[0] ?? '', new RegExp(variable))
      assert.equal(result.stdout, '')
    })
  }

  test('a .env file in the working directory is read, and the environment wins over it', async () => {
    const folder = tempFolder()
    try {
      writeFileSync(join(folder.path, '.env'), 'DATABASE_URL=sqlite:./from-dotenv.db\n')
      const fromFile = await runCli(['migrate'], {}, folder.path)
      assert.equal(fromFile.code, 0, fromFile.stderr)
      assert.ok(existsSync(join(folder.path, 'from-dotenv.db')), 'DATABASE_URL came from .env')
      const overridden = await runCli(['migrate'], { DATABASE_URL: 'sqlite:./from-env.db' }, folder.path)
      assert.equal(overridden.code, 0)
      assert.ok(existsSync(join(folder.path, 'from-env.db')), 'the environment won')
      writeFileSync(join(folder.path, '.env'), 'PORT=not-a-port\n')
      const bad = await runCli(['serve'], {}, folder.path)
      assert.notEqual(bad.code, 0)
      assert.match(bad.stderr, /PORT/)
    } finally {
      folder.remove()
    }
  })
})

describe('the CLI', () => {
  test('migrate creates the database and its folder, and is safe to run again', async () => {
    const folder = tempFolder()
    try {
      const url = `sqlite:${join(folder.path, 'nested', 'store.db')}`
      assert.equal((await runCli(['migrate'], { DATABASE_URL: url })).code, 0)
      assert.ok(existsSync(join(folder.path, 'nested', 'store.db')))
      assert.equal((await runCli(['migrate'], { DATABASE_URL: url })).code, 0)
    } finally {
      folder.remove()
    }
  })

  test('token create prints only the new token, for scripts', async () => {
    const db = await freshDatabase('sqlite')
    try {
      const result = await runCli(
        ['token', 'create', '--subject', 'carol', '--scope', 'plants:read', '--expires-in', '30d', '--name', 'ci'],
        { DATABASE_URL: db.url },
      )
      assert.equal(result.code, 0, result.stderr)
      assert.match(result.stdout, /^pst_[A-Za-z0-9_-]{43}\n$/)
      const listed = await runCli(['token', 'list'], { DATABASE_URL: db.url })
      assert.match(listed.stdout, /^1\tcarol\tplants:read\t\S+\t\S+Z\tno\tci\n$/)
    } finally {
      await db.drop()
    }
  })

  for (const flag of ['--help', '-h', 'help']) {
    test(`plantstore ${flag} prints the usage on standard output and exits 0`, async () => {
      const result = await runCli([flag], {})
      assert.equal(result.code, 0, result.stderr)
      assert.match(result.stdout, /^usage: plantstore <command>/)
      assert.match(result.stdout, /token create --subject S/)
      assert.equal(result.stderr, '')
    })
  }

  test('plantstore --version prints the package version and exits 0', async () => {
    const result = await runCli(['--version'], {})
    assert.equal(result.code, 0)
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }
    assert.equal(result.stdout, `${manifest.version}\n`)
  })

  test('an unknown command prints the usage on standard error and exits 2', async () => {
    const result = await runCli(['frobnicate'], {})
    assert.equal(result.code, 2)
    assert.equal(result.stdout, '')
    assert.match(result.stderr, /usage: plantstore <command>/)
  })

  test("token list --json prints one JSON array of every token's record, never a token", async () => {
    const db = await freshDatabase('sqlite')
    try {
      await runCli(['token', 'create', '--subject', 'erin', '--name', 'laptop', '--expires-in', '12h'], { DATABASE_URL: db.url })
      await runCli(['token', 'create', '--subject', 'frank', '--scope', 'plants:read'], { DATABASE_URL: db.url })
      assert.equal((await runCli(['token', 'revoke', '2'], { DATABASE_URL: db.url })).code, 0)
      const listed = await runCli(['token', 'list', '--json'], { DATABASE_URL: db.url })
      assert.equal(listed.code, 0, listed.stderr)
      assert.ok(!listed.stdout.includes('pst_'))
      const tokens = JSON.parse(listed.stdout) as Record<string, unknown>[]
      assert.equal(tokens.length, 2)
      assert.deepEqual(Object.keys(tokens[0] ?? {}).sort(), ['createdAt', 'expiresAt', 'id', 'name', 'revokedAt', 'scopes', 'subject'])
      assert.deepEqual(
        { ...tokens[0], createdAt: 'x', expiresAt: typeof tokens[0]?.expiresAt },
        {
          id: 1,
          subject: 'erin',
          scopes: ['plants:read', 'plants:write'],
          createdAt: 'x',
          expiresAt: 'string',
          revokedAt: null,
          name: 'laptop',
        },
      )
      assert.equal(tokens[1]?.subject, 'frank')
      assert.match(String(tokens[1]?.revokedAt), /^\d{4}-\d\d-\d\dT.*Z$/)
    } finally {
      await db.drop()
    }
  })

  const badCommands: string[][] = [
    [],
    ['frobnicate'],
    ['serve', 'now'],
    ['token'],
    ['token', 'create'],
    ['token', 'create', '--subject', ''],
    ['token', 'create', '--subject', 'a b'],
    ['token', 'create', '--subject', 'dave', '--scope', 'plants:fly'],
    ['token', 'create', '--subject', 'dave', '--expires-in', '3w'],
    ['token', 'create', '--subject', 'dave', '--colour', 'red'],
    ['token', 'revoke'],
    ['token', 'revoke', 'abc'],
    ['token', 'revoke', '999'],
    ['token', 'list', 'extra'],
  ]
  for (const args of badCommands) {
    test(`plantstore ${args.join(' ') || '(nothing)'} prints a usage error and exits non-zero`, async () => {
      const db = await freshDatabase('sqlite')
      try {
        const result = await runCli(args, { DATABASE_URL: db.url })
        assert.notEqual(result.code, 0)
        assert.equal(result.stdout, '')
        assert.match(result.stderr, /^plantstore: /)
      } finally {
        await db.drop()
      }
    })
  }
})
