import assert from 'node:assert/strict'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { backupSqlite } from '../src/backup/sqlite-backup.js'
import { restoreSqlite } from '../src/backup/sqlite-restore.js'
import { loadConfig } from '../src/config/config.js'
import { openStore } from '../src/open-store.js'
import { tempFolder } from '../support/service.js'

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
