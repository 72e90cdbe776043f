import assert from 'node:assert/strict'
import { mkdirSync, existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { STORE_KINDS, freshDatabase } from '../support/databases.js'
import { withReceiver } from '../support/receiver.js'
import { runCli, tempFolder } from '../support/service.js'
import { type InProcessFixture, buildFixture } from './helpers/in-process.js'

// What users type and read does what it says: the request a wrapper sends, the CLI's
// arguments, a .env file, the document a generator reads.

const MANAGE = ['--scope', 'plants:read,plants:write,webhooks:manage']
const JSON_TYPE = { 'content-type': 'application/json' }

for (const kind of STORE_KINDS) {
  describe(`requests without a body but with Content-Type: application/json, on ${kind}`, () => {
    let fx: InProcessFixture
    let token: string
    before(async () => {
      fx = await buildFixture(kind, { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' })
      token = await fx.token('wrapper', ...MANAGE)
    })
    after(async () => {
      await fx.close()
    })

    test('DELETE /plants/{id} is 204', async () => {
      assert.equal((await fx.api.createPlant(token, { id: 1n, name: 'doomed' })).status, 200)
      const answer = await fx.api.request('DELETE', '/plants/1', { token, headers: { ...JSON_TYPE, 'content-length': '0' } })
      assert.equal(answer.status, 204, answer.text)
    })

    test('POST /webhooks/{id}/ping is 202 and DELETE /webhooks/{id} is 204', async () => {
      const made = await fx.api.request<{ id: string }>('POST', '/webhooks', { token, json: { url: 'http://127.0.0.1:9/hook' } })
      const ping = await fx.api.request('POST', `/webhooks/${made.body.id}/ping`, { token, headers: JSON_TYPE })
      assert.equal(ping.status, 202, ping.text)
      const deleted = await fx.api.request('DELETE', `/webhooks/${made.body.id}`, {
        token,
        headers: { ...JSON_TYPE, 'content-length': '0' },
      })
      assert.equal(deleted.status, 204, deleted.text)
    })

    test('a route that takes a body still refuses an empty one', async () => {
      const answer = await fx.api.request('POST', '/plants', { token, headers: JSON_TYPE, raw: '' })
      assert.equal(answer.status, 400)
    })
  })
}

describe('the CLI refuses what it does not understand', () => {
  let url: string
  let drop: () => Promise<void>
  before(async () => {
    const db = await freshDatabase('sqlite')
    url = db.url
    drop = db.drop
  })
  after(async () => {
    await drop()
  })
  const cli = (...args: string[]) => runCli(args, { DATABASE_URL: url })

  for (const args of [['--bogus'], ['extra'], ['--dry-run']]) {
    test(`migrate ${args.join(' ')} prints the usage and exits 2`, async () => {
      const result = await cli('migrate', ...args)
      assert.equal(result.code, 2, result.stderr)
      assert.match(result.stderr, /usage: plantstore/)
    })
  }

  test('a repeated --subject is refused; repeated --scope values add up', async () => {
    const twice = await cli('token', 'create', '--subject', 'alice', '--subject', 'bob')
    assert.equal(twice.code, 2)
    assert.match(twice.stderr, /--subject is given more than once/)
    const made = await cli('token', 'create', '--subject', 'scoped', '--scope', 'plants:read', '--scope', 'webhooks:manage')
    assert.equal(made.code, 0, made.stderr)
    const listed = JSON.parse((await cli('token', 'list', '--json')).stdout) as { subject: string; scopes: string[] }[]
    assert.deepEqual(listed.find((token) => token.subject === 'scoped')?.scopes, ['plants:read', 'webhooks:manage'])
  })

  test('revoking an unknown or revoked token says so in one line and exits 1', async () => {
    const unknown = await cli('token', 'revoke', '99999')
    assert.equal(unknown.code, 1)
    assert.deepEqual(unknown.stderr.trim().split('\n'), ['plantstore: no token 99999 that is not already revoked'])
    await cli('token', 'create', '--subject', 'short-lived')
    const id = (JSON.parse((await cli('token', 'list', '--json')).stdout) as { id: number; subject: string }[]).find(
      (token) => token.subject === 'short-lived',
    )?.id
    assert.equal((await cli('token', 'revoke', String(id))).code, 0)
    const again = await cli('token', 'revoke', String(id))
    assert.equal(again.code, 1)
    assert.equal(again.stderr.trim().split('\n').length, 1)
  })

  test('token list prints 7 tab-separated columns on every line, with or without a name or expiry', async () => {
    await cli('token', 'create', '--subject', 'named', '--name', 'the CI runner', '--expires-in', '30d')
    await cli('token', 'create', '--subject', 'plain')
    const lines = (await cli('token', 'list')).stdout.replace(/\n$/, '').split('\n')
    assert.ok(lines.length >= 2)
    for (const line of lines) {
      const columns = line.split('\t')
      assert.equal(columns.length, 7, line)
      assert.match(columns[4] ?? '', /^(never|\d{4}-\d\d-\d\dT\S+Z)$/)
      assert.match(columns[5] ?? '', /^(no|\d{4}-\d\d-\d\dT\S+Z)$/)
    }
    const named = lines.find((line) => line.split('\t')[1] === 'named')?.split('\t')
    assert.equal(named?.[6], 'the CI runner')
    assert.equal(lines.find((line) => line.split('\t')[1] === 'plain')?.split('\t')[6], '')
  })
})

describe('a .env file', () => {
  test('with a line that is not NAME=value is refused, naming the line, and nothing runs', async () => {
    const folder = tempFolder()
    try {
      writeFileSync(join(folder.path, '.env'), 'oops\nDATABASE_URL=sqlite:./mine/p.db\n')
      const result = await runCli(['migrate'], {}, folder.path)
      assert.equal(result.code, 2, result.stderr)
      assert.match(result.stderr, /\.env line 1/)
      assert.equal(existsSync(join(folder.path, 'data')), false, 'no default database was made')
      assert.equal(existsSync(join(folder.path, 'mine')), false)
    } finally {
      folder.remove()
    }
  })

  test('starting with a UTF-8 byte order mark is read exactly', async () => {
    const folder = tempFolder()
    try {
      mkdirSync(join(folder.path, 'bom'))
      writeFileSync(join(folder.path, '.env'), '\uFEFFDATABASE_URL=sqlite:./bom/p.db\n# a comment\n\nLOG_LEVEL="warn"\n')
      const result = await runCli(['migrate'], {}, folder.path)
      assert.equal(result.code, 0, result.stderr)
      assert.equal(existsSync(join(folder.path, 'bom', 'p.db')), true)
    } finally {
      folder.remove()
    }
  })
})

describe("the document's webhooks", () => {
  let fx: InProcessFixture
  before(async () => {
    fx = await buildFixture('sqlite', { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' })
  })
  after(async () => {
    await fx.close()
  })

  test('declare newPlant, plantUpdated, plantDeleted and ping, each with the headers a real delivery carries', async () => {
    interface Parameter {
      name: string
      in: string
      schema: { enum?: string[] }
    }
    const document = (await fx.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      webhooks: Record<string, { post: { parameters: Parameter[] } }>
    }>()
    assert.deepEqual(Object.keys(document.webhooks).sort(), ['newPlant', 'ping', 'plantDeleted', 'plantUpdated'])
    const token = await fx.token('documented', ...MANAGE)
    await withReceiver(async (receiver) => {
      const made = await fx.api.request<{ id: string }>('POST', '/webhooks', {
        token,
        json: { url: receiver.url(), events: ['newPlant', 'plantUpdated', 'plantDeleted'] },
      })
      assert.equal((await fx.api.createPlant(token, { id: 7n, name: 'announced' })).status, 200)
      const renamed = await fx.api.request('PATCH', '/plants/7', { token, json: { name: 'renamed' } })
      assert.equal(renamed.status, 200)
      assert.equal((await fx.api.request('DELETE', '/plants/7', { token })).status, 204)
      assert.equal((await fx.api.request('POST', `/webhooks/${made.body.id}/ping`, { token })).status, 202)
      const received = await receiver.until((all) => all.length >= 4)
      for (const delivery of received) {
        const event = delivery.headers['plantstore-event'] as string
        const declared = document.webhooks[event]?.post.parameters
        assert.ok(declared, `the document declares the ${event} webhook`)
        for (const parameter of declared.filter((one) => one.in === 'header')) {
          assert.ok(delivery.headers[parameter.name] !== undefined, `${event} carries ${parameter.name}`)
        }
        assert.deepEqual(declared.find((one) => one.name === 'plantstore-event')?.schema.enum, [event])
      }
    })
  })
})
