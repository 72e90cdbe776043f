import assert from 'node:assert/strict'
import { test } from 'node:test'
import { POSTGRES_ADMIN_URL, POSTGRES_UNAVAILABLE } from './helpers/databases.js'

const howToEnable =
  'start PostgreSQL on 127.0.0.1:5432 with trust auth for user postgres, or set TEST_POSTGRES_URL to a server where the user may create databases'

if (POSTGRES_UNAVAILABLE === null) {
  test('the HTTP suite runs against SQLite and PostgreSQL', () => {})
} else if (process.env.CI === 'true') {
  test('PostgreSQL is reachable in CI: a skipped PostgreSQL half is a failure', () => {
    assert.fail(`no PostgreSQL at ${new URL(POSTGRES_ADMIN_URL).host}: ${POSTGRES_UNAVAILABLE}`)
  })
} else {
  console.log(`PostgreSQL half of the suite SKIPPED (${POSTGRES_UNAVAILABLE}); to run it, ${howToEnable}`)
  test('the PostgreSQL half of the suite', { skip: `no PostgreSQL server: ${howToEnable}` }, () => {})
}
