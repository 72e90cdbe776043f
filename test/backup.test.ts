import assert from 'node:assert/strict'
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, test } from 'node:test'
import { Database } from '../src/store/sqlite/driver.js'
import { POSTGRES_UNAVAILABLE, freshDatabase, seedPlants } from '../support/databases.js'
import { pause } from '../support/receiver.js'
import { REPO_ROOT, makeToken, runCli, startService, tempFolder } from '../support/service.js'
import { Api } from './helpers/api.js'

// plantstore backup and restore on SQLite, with the service running and writing: the copy
// holds every acknowledged write, a refusal changes nothing, nothing is ever deleted.

const pathOf = (url: string) => url.slice('sqlite:'.length)

/** The plant ids a SQLite file holds. */
function idsIn(file: string): Set<string> {
  const db = new Database(file, { readonly: true })
  try {
    return new Set((db.prepare('SELECT id FROM plants').pluck().safeIntegers(true).all() as bigint[]).map(String))
  } finally {
    db.close()
  }
}

describe('plantstore backup', () => {
  test('under write load, the copy holds every plant acknowledged before it started, passes integrity_check, and no request fails', async () => {
    const db = await freshDatabase('sqlite')
    const folder = tempFolder()
    const service = await startService({ DATABASE_URL: db.url })
    try {
      await seedPlants(db, { owner: 'writer', firstId: 1_000_000n, count: 50_000, name: (i) => `seeded ${i}` })
      const token = await makeToken(db.url, 'writer')
      const api = await Api.connect(service.url)
      const acknowledged: { id: number; at: number }[] = []
      const statuses = new Map<number, number>()
      let stop = false
      let next = 1
      const lane = async () => {
        while (!stop && next < 200_000) {
          const id = next++
          const answer = await api.createPlant(token, { id, name: `written ${id}` })
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
          if (answer.status === 200) acknowledged.push({ id, at: Date.now() })
        }
      }
      const lanes = Array.from({ length: 8 }, lane)
      // Enough acknowledged writes before the backup starts, however busy the machine.
      for (let i = 0; i < 600 && acknowledged.length <= 120; i++) await pause(50)
      const startedAt = Date.now()
      const target = join(folder.path, 'backup.db')
      const result = await runCli(['backup', '--to', target], { DATABASE_URL: db.url })
      await pause(300)
      stop = true
      await Promise.all(lanes)
      assert.equal(result.code, 0, result.stderr)
      assert.match(result.stdout, /^backup: .*backup\.db, \d+ bytes, \d+ plants, \d+\.\d s\n$/)
      assert.deepEqual([...statuses.keys()], [200], 'every create during the backup was answered 200')
      const held = idsIn(target)
      // Acknowledged no later than the moment the backup command was about to start.
      const before = acknowledged.filter((plant) => plant.at <= startedAt)
      assert.ok(before.length > 100, `plants were written before the backup (${before.length})`)
      for (const plant of before) assert.ok(held.has(String(plant.id)), `plant ${plant.id}, acknowledged before the backup, is in it`)
      assert.ok(held.has('1000000') && held.has('1049999'))
      const check = new Database(target, { readonly: true })
      assert.equal(check.pragma('integrity_check', { simple: true }), 'ok')
      check.close()
      assert.deepEqual(
        readdirSync(folder.path).filter((name) => name !== 'backup.db'),
        [],
        'no temporary file is left',
      )
    } finally {
      await service.stop()
      folder.remove()
      await db.drop()
    }
  })

  test('an existing PATH is never overwritten (exit 2), and PostgreSQL is sent to pgBackRest (exit 2)', async () => {
    const db = await freshDatabase('sqlite')
    const folder = tempFolder()
    try {
      await runCli(['migrate'], { DATABASE_URL: db.url })
      const target = join(folder.path, 'taken.db')
      writeFileSync(target, 'keep me')
      const taken = await runCli(['backup', '--to', target], { DATABASE_URL: db.url })
      assert.equal(taken.code, 2)
      assert.match(taken.stderr, new RegExp(`^plantstore: backup --to ${target}: that file exists`))
      assert.equal(readFileSync(target, 'utf8'), 'keep me')
      const postgres = await runCli(['backup', '--to', join(folder.path, 'pg.db')], { DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none' })
      assert.equal(postgres.code, 2)
      assert.match(postgres.stderr, /pgBackRest/)
      assert.equal(existsSync(join(folder.path, 'pg.db')), false)
    } finally {
      folder.remove()
      await db.drop()
    }
  })

  test('killed midway, it leaves nothing at PATH', async () => {
    const db = await freshDatabase('sqlite')
    const folder = tempFolder()
    try {
      await runCli(['migrate'], { DATABASE_URL: db.url })
      await seedPlants(db, { owner: 'big', firstId: 1n, count: 400_000, name: (i) => `a plant with a longer name ${i}` })
      const target = join(folder.path, 'cut.db')
      const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'plantstore'), 'backup', '--to', target], {
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: db.url },
        stdio: 'ignore',
      })
      // Killed once the copy is under way: its temporary file exists beside PATH.
      let partial: string | undefined
      for (let i = 0; i < 1_000 && partial === undefined && child.exitCode === null; i++) {
        partial = readdirSync(folder.path).find((name) => name.startsWith('.cut.db.partial-'))
        if (partial === undefined) await pause(5)
      }
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit')
        child.kill('SIGKILL')
        await exited
      }
      assert.ok(partial !== undefined, 'the backup was killed while it copied')
      assert.equal(existsSync(target), false)
    } finally {
      folder.remove()
      await db.drop()
    }
  })
})

describe('plantstore restore', () => {
  test('refuses a file that is no good Plant Store database, one from a newer version, and a database in use, changing nothing', async () => {
    const db = await freshDatabase('sqlite')
    const folder = tempFolder()
    try {
      const token = await makeToken(db.url, 'keeper')
      const service = await startService({ DATABASE_URL: db.url })
      const api = await Api.connect(service.url)
      assert.equal((await api.createPlant(token, { id: 1n, name: 'kept' })).status, 200)
      const good = join(folder.path, 'good.db')
      assert.equal((await runCli(['backup', '--to', good], { DATABASE_URL: db.url })).code, 0)

      const inUse = await runCli(['restore', '--from', good], { DATABASE_URL: db.url })
      assert.equal(inUse.code, 1)
      assert.match(inUse.stderr, /open: stop it/)
      assert.deepEqual(await api.listPlants(token), [{ name: 'kept' }], 'the service still serves its database')
      await service.stop()

      const garbage = join(folder.path, 'garbage.db')
      writeFileSync(garbage, 'this is not a database at all, just text'.repeat(200))
      const newer = join(folder.path, 'newer.db')
      assert.equal((await runCli(['backup', '--to', newer], { DATABASE_URL: db.url })).code, 0)
      const edit = new Database(newer)
      edit.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, '999_future.sql', 0)").run()
      edit.close()
      // Two pages past the end that no table uses: SQLite's report of them spans lines.
      const damaged = join(folder.path, 'damaged.db')
      const goodBytes = readFileSync(good)
      const pageSize = goodBytes.readUInt16BE(16)
      const grown = Buffer.concat([goodBytes, Buffer.alloc(pageSize * 2)])
      grown.writeUInt32BE(goodBytes.readUInt32BE(28) + 2, 28)
      writeFileSync(damaged, grown)
      const foreign = join(folder.path, 'foreign.db')
      const other = new Database(foreign)
      other.exec('CREATE TABLE notes (text TEXT)')
      other.close()
      for (const [file, reason] of [
        [garbage, /not a good SQLite database|cannot be opened/],
        [newer, /newer Plant Store/],
        [foreign, /no Plant Store database/],
        [damaged, /fails SQLite's integrity check: \*\*\* in database main \*\*\* Page \d+: never used Page \d+: never used$/m],
        [join(folder.path, 'missing.db'), /does not exist/],
      ] as const) {
        const refused = await runCli(['restore', '--from', file], { DATABASE_URL: db.url })
        assert.equal(refused.code, 1, refused.stderr)
        assert.equal(refused.stderr.trim().split('\n').length, 1)
        assert.match(refused.stderr, reason)
      }
      assert.deepEqual(
        readdirSync(folder.path).filter((name) => name.includes('before-restore')),
        [],
      )
      assert.deepEqual([...idsIn(pathOf(db.url))], ['1'], 'the database is untouched')
    } finally {
      folder.remove()
      await db.drop()
    }
  })

  test('puts the backup in place, moves the previous database aside, and the next start serves exactly the restored plants and tokens', async () => {
    const db = await freshDatabase('sqlite')
    const folder = tempFolder()
    try {
      const token = await makeToken(db.url, 'gardener')
      let service = await startService({ DATABASE_URL: db.url })
      let api = await Api.connect(service.url)
      for (const id of [1n, 2n, 3n]) assert.equal((await api.createPlant(token, { id, name: `before ${id}` })).status, 200)
      const backup = join(folder.path, 'before-mistake.db')
      assert.equal((await runCli(['backup', '--to', backup], { DATABASE_URL: db.url })).code, 0)
      // The mistake: every plant deleted, and one made after the backup.
      for (const id of [1n, 2n, 3n]) assert.equal((await api.request('DELETE', `/plants/${id}`, { token })).status, 204)
      assert.equal((await api.createPlant(token, { id: 4n, name: 'after' })).status, 200)
      await service.stop()

      const restored = await runCli(['restore', '--from', backup], { DATABASE_URL: db.url })
      assert.equal(restored.code, 0, restored.stderr)
      assert.match(restored.stdout, /holds the 3 plants of .*; the previous database is at .*\.before-restore-\d{8}T\d{6}Z\n$/)
      const aside = /the previous database is at (\S+)\n/.exec(restored.stdout)?.[1] as string
      assert.deepEqual([...idsIn(aside)], ['4'], 'the previous database is kept, as it was')

      service = await startService({ DATABASE_URL: db.url })
      api = await Api.connect(service.url)
      assert.deepEqual(await api.listPlants(token), [{ name: 'before 1' }, { name: 'before 2' }, { name: 'before 3' }])
      await service.stop()
    } finally {
      folder.remove()
      await db.drop()
    }
  })
})

/** A tmpfs of the test's own (root only), for a disk that is really full or read-only; a reason to skip otherwise. */
function smallDisk(folder: string, size = '64k'): { path: string; unmount(): void } | string {
  const path = join(folder, 'small')
  mkdirSync(path)
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', path], { stdio: 'pipe' })
  } catch (error) {
    rmdirSync(path)
    return `no tmpfs can be mounted here (${(error as Error).message.split('\n')[0]})`
  }
  return { path, unmount: () => execFileSync('umount', [path]) }
}

describe('plantstore backup and restore failures: one line that names the cause', () => {
  test('a full disk is named as the disk of the target, not "database or disk is full"', async (t) => {
    const db = await freshDatabase('sqlite')
    const folder = tempFolder()
    const disk = smallDisk(folder.path)
    if (typeof disk === 'string') {
      t.skip(disk)
      folder.remove()
      await db.drop()
      return
    }
    try {
      await runCli(['migrate'], { DATABASE_URL: db.url })
      await seedPlants(db, { owner: 'big', firstId: 1n, count: 3_000, name: (i) => `a plant with a longer name ${i}` })
      const backup = await runCli(['backup', '--to', join(disk.path, 'x.db')], { DATABASE_URL: db.url })
      assert.equal(backup.code, 1, backup.stderr)
      assert.equal(backup.stderr.trim().split('\n').length, 1, backup.stderr)
      assert.match(backup.stderr, new RegExp(`^plantstore: the backup failed: .*full.*${disk.path}`))
      assert.doesNotMatch(backup.stderr, /database or disk is full/)
      assert.deepEqual(readdirSync(disk.path), [], 'nothing is left on the full disk')

      const good = join(folder.path, 'good.db')
      assert.equal((await runCli(['backup', '--to', good], { DATABASE_URL: db.url })).code, 0)
      const restore = await runCli(['restore', '--from', good], { DATABASE_URL: `sqlite:${join(disk.path, 'p.db')}` })
      assert.equal(restore.code, 1, restore.stderr)
      assert.equal(restore.stderr.trim().split('\n').length, 1, restore.stderr)
      assert.match(restore.stderr, new RegExp(`full.*${disk.path}`))
      assert.doesNotMatch(restore.stderr, /database or disk is full/)
      assert.deepEqual(readdirSync(disk.path), [], 'nothing is left on the full disk')
    } finally {
      disk.unmount()
      folder.remove()
      await db.drop()
    }
  })

  test('backup --to an existing folder or file, or below a file, and restore --from nothing: one line each', async () => {
    const db = await freshDatabase('sqlite')
    const folder = tempFolder()
    try {
      await runCli(['migrate'], { DATABASE_URL: db.url })
      const file = join(folder.path, 'file.db')
      writeFileSync(file, 'keep me')
      const cases = [
        [
          ['backup', '--to', folder.path],
          2,
          new RegExp(`^plantstore: backup --to ${folder.path}: that is a folder; name a new file in it$`),
        ],
        [['backup', '--to', file], 2, new RegExp(`^plantstore: backup --to ${file}: that file exists; a backup never overwrites a file$`)],
        [['backup', '--to', join(file, 'x.db')], 1, new RegExp(`^plantstore: the backup failed: ${file} is a file, not a folder$`)],
        [
          ['restore', '--from', join(folder.path, 'missing.db')],
          1,
          new RegExp(`^plantstore: ${join(folder.path, 'missing.db')} does not exist$`),
        ],
      ] as const
      for (const [args, code, message] of cases) {
        const result = await runCli([...args], { DATABASE_URL: db.url })
        assert.equal(result.code, code, `${args.join(' ')}: ${result.stderr}`)
        assert.equal(result.stderr.trim().split('\n').length, 1, `${args.join(' ')}: ${result.stderr}`)
        assert.match(result.stderr.trim(), message)
      }
      assert.equal(readFileSync(file, 'utf8'), 'keep me')
    } finally {
      folder.remove()
      await db.drop()
    }
  })
})

describe('plantstore restore on a fresh machine', () => {
  test('makes the folder DATABASE_URL names, and a refusal leaves no folder behind', async () => {
    const db = await freshDatabase('sqlite')
    const folder = tempFolder()
    try {
      const token = await makeToken(db.url, 'mover')
      const service = await startService({ DATABASE_URL: db.url })
      const api = await Api.connect(service.url)
      assert.equal((await api.createPlant(token, { id: 7, name: 'moved' })).status, 200)
      const backup = join(folder.path, 'backup.db')
      assert.equal((await runCli(['backup', '--to', backup], { DATABASE_URL: db.url })).code, 0)
      await service.stop()

      const refusedUrl = `sqlite:${join(folder.path, 'refused', 'data', 'plantstore.db')}`
      const refused = await runCli(['restore', '--from', join(folder.path, 'missing.db')], { DATABASE_URL: refusedUrl })
      assert.equal(refused.code, 1)
      assert.equal(existsSync(join(folder.path, 'refused')), false, 'a refusal changes nothing')

      const target = join(folder.path, 'new', 'data', 'plantstore.db')
      const restored = await runCli(['restore', '--from', backup], { DATABASE_URL: `sqlite:${target}` })
      assert.equal(restored.code, 0, restored.stderr)
      assert.match(restored.stdout, /holds the 1 plants of .*; there was no database before\n$/)
      const next = await startService({ DATABASE_URL: `sqlite:${target}` })
      try {
        assert.deepEqual(await (await Api.connect(next.url)).listPlants(token), [{ name: 'moved' }])
      } finally {
        await next.stop()
      }
    } finally {
      folder.remove()
      await db.drop()
    }
  })
})

describe('plantstore restore from the files of a crashed machine', () => {
  test("restores the commits still in the source's -wal: the next start serves every plant and token", async () => {
    const folder = tempFolder()
    try {
      const source = join(folder.path, 'src', 'p.db')
      const sourceUrl = `sqlite:${source}`
      const service = await startService({ DATABASE_URL: sourceUrl })
      // Made while the service has the file open: no checkpoint, so the token too is only in the -wal.
      const token = await makeToken(sourceUrl, 'crashed')
      const api = await Api.connect(service.url)
      for (let id = 1; id <= 20; id++) assert.equal((await api.createPlant(token, { id, name: `plant ${id}` })).status, 200)
      await service.stop('SIGKILL')
      assert.ok(statSync(`${source}-wal`).size > 0, 'the last commits are in the -wal, as on a crashed machine')
      const walBefore = readFileSync(`${source}-wal`)

      const target = join(folder.path, 'restored', 'plantstore.db')
      const targetUrl = `sqlite:${target}`
      mkdirSync(dirname(target))
      const restored = await runCli(['restore', '--from', source], { DATABASE_URL: targetUrl })
      assert.equal(restored.code, 0, restored.stderr)
      assert.match(restored.stdout, /now holds the 20 plants of /)
      assert.deepEqual(readFileSync(`${source}-wal`), walBefore, 'the source is left as it was')

      const next = await startService({ DATABASE_URL: targetUrl })
      try {
        const served = await (await Api.connect(next.url)).listPlants(token)
        assert.equal(served.length, 20, 'every plant, and the token, is served after the restore')
      } finally {
        await next.stop()
      }
    } finally {
      folder.remove()
    }
  })
})

describe('plantstore restore from the files of a crashed machine on read-only media', () => {
  test('says SQLite must write a -shm beside the -wal and to copy both to a writable folder, not that the backup is bad', async (t) => {
    const folder = tempFolder()
    const disk = smallDisk(folder.path, '16m')
    if (typeof disk === 'string') {
      t.skip(disk)
      folder.remove()
      return
    }
    try {
      const source = join(folder.path, 'src', 'p.db')
      const sourceUrl = `sqlite:${source}`
      const service = await startService({ DATABASE_URL: sourceUrl })
      const token = await makeToken(sourceUrl, 'crashed')
      const api = await Api.connect(service.url)
      for (let id = 1; id <= 5; id++) assert.equal((await api.createPlant(token, { id, name: `plant ${id}` })).status, 200)
      await service.stop('SIGKILL')
      const copied = join(disk.path, 'p.db')
      writeFileSync(copied, readFileSync(source))
      writeFileSync(`${copied}-wal`, readFileSync(`${source}-wal`))
      execFileSync('mount', ['-o', 'remount,ro', disk.path])

      const target = join(folder.path, 'restored', 'p.db')
      const refused = await runCli(['restore', '--from', copied], { DATABASE_URL: `sqlite:${target}` })
      assert.equal(refused.code, 1, refused.stderr)
      assert.equal(refused.stderr.trim().split('\n').length, 1, refused.stderr)
      assert.doesNotMatch(refused.stderr, /not a good|cannot be opened/)
      assert.match(refused.stderr, new RegExp(`${copied}-shm`))
      assert.match(refused.stderr, /copy .*p\.db and .*p\.db-wal to a folder that can be written/)
      assert.equal(existsSync(target), false, 'nothing is restored')
    } finally {
      disk.unmount()
      folder.remove()
    }
  })
})

describe('plantstore backup on PostgreSQL', { skip: POSTGRES_UNAVAILABLE ?? false }, () => {
  test('exits 2 and names pgBackRest, for restore too', async () => {
    const db = await freshDatabase('postgres')
    try {
      for (const args of [
        ['backup', '--to', '/nonexistent/x.db'],
        ['restore', '--from', '/nonexistent/x.db'],
      ]) {
        const result = await runCli(args, { DATABASE_URL: db.url })
        assert.equal(result.code, 2)
        assert.match(result.stderr, /pgBackRest/)
      }
    } finally {
      await db.drop()
    }
  })
})
