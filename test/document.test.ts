import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { promisify } from 'node:util'
import { REPO_ROOT, tempFolder } from '../support/service.js'
import { startFixture } from './helpers/fixture.js'
import { type InProcessFixture, buildFixture } from './helpers/in-process.js'

const run = promisify(execFile)

interface Operation {
  operationId?: string
  requestBody?: { content: Record<string, unknown> }
  summary?: string
  description?: string
  security?: unknown[]
  tags?: string[]
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: Record<string, unknown> }> }>
}
interface OpenApiDocument {
  servers: { url: string; description: string }[]
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, { examples?: unknown[]; properties?: Record<string, Record<string, unknown>> }> }
}

/** A linter's command line, run on a file; its JSON report whatever its exit code. */
async function lint(command: string, args: string[]): Promise<string> {
  try {
    return (await run(join(REPO_ROOT, 'node_modules', '.bin', command), args, { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 })).stdout
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string }
    if (!failed.stdout) throw new Error(`${command} did not run: ${failed.stderr ?? String(error)}`, { cause: error })
    return failed.stdout
  }
}

const operationsOf = (document: OpenApiDocument): [string, Operation][] =>
  Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]): [string, Operation] => [`${method.toUpperCase()} ${path}`, operation]),
  )

describe('the served OpenAPI document', () => {
  let fx: InProcessFixture
  let text: string
  let document: OpenApiDocument
  const folder = tempFolder()
  const file = join(folder.path, 'openapi.json')
  before(async () => {
    // As a deployment serves it: published at an https address.
    fx = await buildFixture('sqlite', { PUBLIC_URL: 'https://plants.plantstore.test' })
    text = (await fx.app.inject({ method: 'GET', url: '/openapi.json' })).body
    document = JSON.parse(text) as OpenApiDocument
    writeFileSync(file, text)
  })
  after(async () => {
    await fx.close()
    folder.remove()
  })

  test('Spectral (spectral:oas and the OWASP API Top 10 ruleset) finds 0 errors', async () => {
    const report = JSON.parse(await lint('spectral', ['lint', file, '--ruleset', '.spectral.yaml', '--format', 'json', '--quiet'])) as {
      code: string
      message: string
      path: string[]
      severity: number
    }[]
    const errors = report.filter((problem) => problem.severity === 0)
    assert.deepEqual(
      errors.map((problem) => `${problem.code} at ${problem.path.join('.')}: ${problem.message}`),
      [],
    )
  })

  test("Redocly's recommended rules find 0 errors", async () => {
    const report = JSON.parse(await lint('redocly', ['lint', file, '--config', 'redocly.yaml', '--format', 'json'])) as {
      totals: { errors: number }
      problems: { ruleId: string; message: string; severity: string }[]
    }
    assert.deepEqual(
      report.problems.filter((problem) => problem.severity === 'error').map((problem) => `${problem.ruleId}: ${problem.message}`),
      [],
    )
    assert.equal(report.totals.errors, 0)
  })

  test('Plant, NewPlant and Error are named component schemas, each with an example, and operations refer to them', () => {
    for (const name of ['Plant', 'NewPlant', 'Error']) {
      assert.ok(document.components.schemas[name]?.examples?.length, `${name} has an example`)
    }
    const create = document.paths['/plants']?.post as Operation & { requestBody: { content: Record<string, { schema: unknown }> } }
    assert.deepEqual(create.requestBody.content['application/json']?.schema, { $ref: '#/components/schemas/NewPlant' })
    assert.deepEqual(create.responses['200']?.content?.['application/json']?.schema, { $ref: '#/components/schemas/Plant' })
    assert.deepEqual(create.responses['400']?.content?.['application/json']?.schema, { $ref: '#/components/schemas/Error' })
  })

  test('the int64 bounds are written exactly in the served text', () => {
    const id = /"id":\{[^}]*\}/.exec(text.slice(text.indexOf('"NewPlant":{')))?.[0] ?? ''
    assert.match(id, /"minimum":-9223372036854775808[,}]/)
    assert.match(id, /"maximum":9223372036854775807[,}]/)
    assert.equal(document.components.schemas.NewPlant?.properties?.id?.format, 'int64')
  })

  test('every operation has an operationId, a summary, a description and the statuses any route can send', () => {
    const operations = operationsOf(document)
    assert.equal(operations.length, 18)
    const ids = operations.map(([, operation]) => operation.operationId)
    assert.equal(new Set(ids).size, ids.length, 'operationIds are unique')
    for (const [name, operation] of operations) {
      assert.ok(operation.operationId && operation.summary && operation.description, `${name} is described`)
      for (const status of ['405', '408', '431', '500']) assert.ok(operation.responses[status], `${name} declares ${status}`)
      for (const [status, answer] of Object.entries(operation.responses)) {
        assert.ok(answer.headers?.['X-Request-Id'], `${name} ${status} declares X-Request-Id`)
      }
    }
  })

  test('the headers the service sends are declared where it sends them', () => {
    const responses = (path: string, method: string) => document.paths[path]?.[method]?.responses ?? {}
    assert.ok(responses('/plants', 'post')['200']?.headers?.Location)
    assert.ok(responses('/plants', 'post')['200']?.headers?.['Idempotent-Replayed'])
    assert.ok(responses('/plants', 'get')['200']?.headers?.Link)
    assert.ok(responses('/plants', 'get')['401']?.headers?.['WWW-Authenticate'])
    assert.ok(responses('/plants', 'get')['403']?.headers?.['WWW-Authenticate'])
    assert.ok(responses('/plants', 'get')['429']?.headers?.['Retry-After'])
    assert.ok(responses('/plants', 'post')['409']?.headers?.['Retry-After'])
    assert.ok(responses('/plants/{id}', 'delete')['405']?.headers?.Allow)
    assert.ok(responses('/plants/{id}', 'delete')['204']?.headers?.['RateLimit-Remaining'])
    assert.equal(responses('/plants/{id}', 'delete')['204']?.content, undefined, '204 has no body')
  })

  test("every guarded operation declares its scope, the guard's 401, 403, 429 and 503, and RateLimit headers below 500", () => {
    const guarded = operationsOf(document).filter(([name]) => /^\w+ \/(plants|webhooks)/.test(name))
    assert.equal(guarded.length, 15)
    for (const [name, operation] of guarded) {
      const [requirement] = operation.security as [{ bearerAuth: string[] }]
      assert.equal(operation.security?.length, 1, name)
      assert.match(requirement.bearerAuth.join(' '), /^(plants:read|plants:write|webhooks:manage)$/, name)
      assert.deepEqual(operation.tags, [name.split('/')[1]], `${name} is tagged by its path`)
      for (const status of ['401', '403', '429', '503']) assert.ok(operation.responses[status], `${name} declares ${status}`)
      for (const [status, answer] of Object.entries(operation.responses)) {
        assert.equal(
          Boolean(answer.headers?.['RateLimit-Limit']),
          Number(status) < 500,
          `${name} ${status}: RateLimit headers below 500 only`,
        )
      }
    }
    const open = operationsOf(document).filter(([name]) => !guarded.some(([other]) => other === name))
    for (const [name, operation] of open) assert.equal(operation.responses['401'], undefined, `${name} needs no token`)
  })

  test('every operation takes exactly the request content types it declares, and says which when refused', async () => {
    const candidates = ['application/json', 'application/merge-patch+json', 'text/plain', 'application/x-www-form-urlencoded']
    const withBodies = operationsOf(document).filter(([, operation]) => operation.requestBody !== undefined)
    assert.ok(withBodies.length >= 5, 'the operations with a body are found')
    for (const [name, operation] of withBodies) {
      const [method, template] = name.split(' ') as [string, string]
      const url = template.replace(/\{[^}]+\}/g, '1')
      const declared = Object.keys(operation.requestBody?.content ?? {})
      for (const type of candidates) {
        const answer = await fx.app.inject({
          method: method as 'POST',
          url,
          headers: { authorization: `Bearer ${fx.adminToken}`, 'content-type': type },
          // A valid plant for POST /plants: only a content type could refuse it.
          payload: template === '/plants' ? '{"id":77,"name":"sent as each type"}' : '{}',
        })
        const message = (JSON.parse(answer.body || '{}') as { message?: string }).message ?? ''
        const refusedType = answer.statusCode === 400 && /Content-Type/.test(message)
        if (declared.includes(type)) assert.ok(!refusedType, `${name} declares ${type} and takes it: ${answer.statusCode} ${message}`)
        else {
          assert.ok(refusedType, `${name} does not declare ${type} and refuses it: ${answer.statusCode} ${message}`)
          for (const named of declared) assert.ok(message.includes(named), `${name}: the refusal names ${named}: ${message}`)
        }
      }
    }
    const created = await fx.api.request('GET', '/plants', { token: fx.adminToken })
    assert.deepEqual(created.body, [{ name: 'sent as each type' }], 'the plant was created once, as application/json')
  })

  test('the words say what the service does: plants:write also changes plants; POST /webhooks subscribes to every plant event', () => {
    const text = JSON.stringify(document)
    assert.match(text, /plants:write \(create, change/)
    const summary = document.paths['/webhooks']?.post?.summary ?? ''
    assert.doesNotMatch(summary, /new plants/, summary)
    assert.match(summary, /plant events/)
  })

  test('servers names PUBLIC_URL as the production address', () => {
    assert.deepEqual(
      document.servers.map(({ url, description }) => ({ url, production: description.startsWith('production') })),
      [{ url: 'https://plants.plantstore.test', production: true }],
    )
  })

  test('an Error message stays within the maxLength the document gives it', async () => {
    const long = `/${'x'.repeat(5000)}`
    const answer = await fx.app.inject({ method: 'GET', url: long })
    const body = answer.json<{ error: number; message: string }>()
    assert.equal(body.error, 404)
    assert.equal([...body.message].length, 1000)
    assert.ok(body.message.startsWith('no route for GET /xxx') && body.message.endsWith('…'))
  })
})

describe('the document served with the default configuration (no PUBLIC_URL)', () => {
  let fx: InProcessFixture
  let document: OpenApiDocument
  const folder = tempFolder()
  const file = join(folder.path, 'openapi.json')
  before(async () => {
    fx = await buildFixture('sqlite')
    const text = (await fx.app.inject({ method: 'GET', url: '/openapi.json' })).body
    document = JSON.parse(text) as OpenApiDocument
    writeFileSync(file, text)
  })
  after(async () => {
    await fx.close()
    folder.remove()
  })

  test('servers is the origin the document was fetched from (/), marked local', () => {
    assert.deepEqual(
      document.servers.map(({ url, description }) => ({ url, local: description.startsWith('local') })),
      [{ url: '/', local: true }],
    )
  })

  test('Spectral (spectral:oas and the OWASP ruleset) and Redocly find 0 errors in it too', async () => {
    const spectral = JSON.parse(await lint('spectral', ['lint', file, '--ruleset', '.spectral.yaml', '--format', 'json', '--quiet'])) as {
      code: string
      severity: number
    }[]
    assert.deepEqual(
      spectral.filter((problem) => problem.severity === 0).map((problem) => problem.code),
      [],
    )
    const redocly = JSON.parse(await lint('redocly', ['lint', file, '--config', 'redocly.yaml', '--format', 'json'])) as {
      problems: { ruleId: string; severity: string }[]
    }
    assert.deepEqual(
      redocly.problems.filter((problem) => problem.severity === 'error').map((problem) => problem.ruleId),
      [],
    )
  })
})

test('without PUBLIC_URL, the served /docs page and the document work over HTTP at whatever address', async () => {
  const fx = await startFixture('sqlite')
  try {
    const document = (await fx.api.request<OpenApiDocument>('GET', '/openapi.json')).body
    assert.equal(document.servers[0]?.url, '/')
    assert.equal((await fetch(`${fx.service.url}/docs`)).status, 200)
  } finally {
    await fx.close()
  }
})
