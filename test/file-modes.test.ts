import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { chmodSync, chownSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { backupSqlite } from '../src/backup/sqlite-backup.js'
import { restoreSqlite } from '../src/backup/sqlite-restore.js'
import { loadConfig } from '../src/config/config.js'
import { openStore } from '../src/open-store.js'
import { REPO_ROOT, tempFolder } from '../support/service.js'

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8)

test('the SQLite database, its -wal and -shm are created 0600, and a folder it makes 0700', async () => {
  const folder = tempFolder()
  try {
    const path = join(folder.path, 'made', 'plantstore.db')
    const store = await openStore(loadConfig({ DATABASE_URL: `sqlite:${path}` }).database)
    try {
      assert.equal(await store.plants.create({ id: 1n, owner: 'modes', name: 'kept private', tag: null }).then(Boolean), true)
      assert.deepEqual(
        [mode(join(folder.path, 'made')), mode(path), mode(`${path}-wal`), mode(`${path}-shm`)],
        ['700', '600', '600', '600'],
      )
    } finally {
      await store.close()
    }
  } finally {
    folder.remove()
  }
})

test('a backup is written 0600 into a folder it makes 0700, and a restored database is 0600', async () => {
  const folder = tempFolder()
  try {
    const path = join(folder.path, 'plantstore.db')
    const store = await openStore(loadConfig({ DATABASE_URL: `sqlite:${path}` }).database)
    try {
      await store.plants.create({ id: 1n, owner: 'modes', name: 'kept private', tag: null })
    } finally {
      await store.close()
    }
    const backup = join(folder.path, 'backups', 'nightly', 'plantstore.db')
    assert.equal(backupSqlite(path, backup).plants, 1)
    assert.deepEqual(
      [mode(join(folder.path, 'backups')), mode(join(folder.path, 'backups', 'nightly')), mode(backup)],
      ['700', '700', '600'],
    )

    const restored = join(folder.path, 'elsewhere', 'plantstore.db')
    assert.equal((await restoreSqlite(restored, backup)).plants, 1)
    assert.deepEqual([mode(join(folder.path, 'elsewhere')), mode(restored)], ['700', '600'])
  } finally {
    folder.remove()
  }
})

test('serve as a user that cannot write the database folder says permission denied and names the folder', async (t) => {
  const cli = join(REPO_ROOT, 'bin', 'plantstore')
  const asNobody = (...args: string[]) => spawnSync('runuser', ['-u', 'nobody', '--', ...args], { encoding: 'utf8', timeout: 60_000 })
  if (process.getuid?.() !== 0 || asNobody(process.execPath, '-e', `require('fs').accessSync(${JSON.stringify(cli)})`).status !== 0) {
    t.skip('needs root, runuser and a checkout the user nobody can read')
    return
  }
  const folder = tempFolder()
  try {
    chmodSync(folder.path, 0o755)
    const path = join(folder.path, 'plantstore.db')
    await (await openStore(loadConfig({ DATABASE_URL: `sqlite:${path}` }).database)).close()
    rmSync(`${path}-wal`, { force: true })
    rmSync(`${path}-shm`, { force: true })
    // The file is the service user's; the folder (a volume mounted as root) is not.
    chownSync(path, Number(asNobody('id', '-u').stdout.trim()), 0)
    const result = asNobody('env', `DATABASE_URL=sqlite:${path}`, 'PORT=0', process.execPath, cli, 'serve')
    assert.equal(result.status, 1)
    assert.match(result.stderr.trim(), new RegExp(`folder ${folder.path} cannot be written: permission denied`))
    assert.equal(result.stderr.trim().split('\n').length, 1)
  } finally {
    folder.remove()
  }
})
