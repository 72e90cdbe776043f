import assert from 'node:assert/strict'
import { test } from 'node:test'
import { POSTGRES_ADMIN_URL, POSTGRES_UNAVAILABLE, STORE_KINDS } from '../support/databases.js'

const howToEnable =
  'start PostgreSQL on 127.0.0.1:5432 with trust auth for user postgres, or set TEST_POSTGRES_URL to a server where the user may create databases'
const skipped = POSTGRES_UNAVAILABLE !== null && process.env.CI !== 'true'

if (skipped) console.log(`PostgreSQL half of the suite SKIPPED (${POSTGRES_UNAVAILABLE}); to run it, ${howToEnable}`)

test(
  'the HTTP suite runs against both SQLite and PostgreSQL (under CI=true a missing PostgreSQL fails)',
  {
    skip: skipped ? `no PostgreSQL server: ${howToEnable}` : false,
  },
  () => {
    assert.equal(POSTGRES_UNAVAILABLE, null, `no PostgreSQL at ${new URL(POSTGRES_ADMIN_URL).host}: ${POSTGRES_UNAVAILABLE}`)
    assert.deepEqual(STORE_KINDS, ['sqlite', 'postgres'])
  },
)
