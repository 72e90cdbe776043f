import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type ServiceFixture, startFixture } from './helpers/fixture.js'
import { rawRequest } from './helpers/raw-http.js'

// One request, one credential (RFC 9110 11.6.2): a header holding several, or two headers
// (Node keeps only the first), would authenticate as whichever the server happened to read.

describe('an Authorization header holding more than one credential', () => {
  let fx: ServiceFixture
  before(async () => {
    fx = await startFixture('sqlite')
  })
  after(async () => {
    await fx.close()
  })

  const get = (authorization: string) =>
    rawRequest(fx.service.url, `GET /plants HTTP/1.1\r\nHost: x\r\n${authorization}Connection: close\r\n\r\n`)

  test('Bearer a, Bearer b in one header is a 400 Error saying to send one token', async () => {
    const answer = await get(`Authorization: Bearer ${fx.adminToken}, Bearer other\r\n`)
    assert.equal(answer.status, 400, answer.body)
    assert.deepEqual(Object.keys(JSON.parse(answer.body) as object), ['error', 'message'])
    assert.match((JSON.parse(answer.body) as { message: string }).message, /one Authorization header with one Bearer token/)
  })

  test('two Authorization headers are a 400, even when the first is valid', async () => {
    const answer = await get(`Authorization: Bearer ${fx.adminToken}\r\nAuthorization: Bearer other\r\n`)
    assert.equal(answer.status, 400, answer.body)
  })

  test('one valid header still reads the list', async () => {
    const answer = await get(`Authorization: Bearer ${fx.adminToken}\r\n`)
    assert.equal(answer.status, 200, answer.body)
  })
})
