import assert from 'node:assert/strict'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
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
