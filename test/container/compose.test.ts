import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { parse } from 'yaml'
import { assertImagesBuilt, STAND_IN_IMAGES, TEST_IMAGE } from '../../support/container/image.js'
import { containersUnavailable, must, run } from '../../support/container/podman.js'
import { freePort, waitUntil } from '../../support/container/waiting.js'
import { REPO_ROOT } from '../../support/service.js'
import { Api } from '../helpers/api.js'

const BIG_ID = 9007199254740993n // 2^53 + 1
const COMPOSE_FILE = join(REPO_ROOT, 'compose.yaml')

interface ComposeFile {
  services: Record<string, { healthcheck?: { test: string[] } }>
}

async function composeUnavailable(): Promise<string | null> {
  const containers = await containersUnavailable()
  if (containers) return containers
  const compose = await run('podman-compose', ['version'])
  return compose.code === 0 ? null : 'podman-compose is not installed (apt-get install podman-compose)'
}

const unavailable = await composeUnavailable()

describe('compose.yaml: PostgreSQL and two instances behind nginx', { skip: unavailable ?? false }, () => {
  const project = `plantstore-test-${randomBytes(4).toString('hex')}`
  const declared = parse(readFileSync(COMPOSE_FILE, 'utf8')) as ComposeFile
  let env: Record<string, string>
  let url: string
  let admin: string
  let api: Api

  const compose = (args: string[]) =>
    must('podman-compose', ['--project-name', project, '--file', COMPOSE_FILE, ...args], { env, timeoutMs: 300_000 })

  /** The container of a compose service (podman-compose and docker compose name them differently). */
  async function container(service: string): Promise<string> {
    const names = await must('podman', [
      'ps',
      '--all',
      '--format',
      '{{.Names}}',
      '--filter',
      `label=io.podman.compose.project=${project}`,
      '--filter',
      `label=com.docker.compose.service=${service}`,
    ])
    const [name] = names.trim().split('\n')
    assert.ok(name, `no container for ${service}`)
    return name
  }

  /** Runs the health check compose.yaml declares for the service inside its container; true when it passes. */
  async function healthy(service: string): Promise<boolean> {
    const [form, ...command] = declared.services[service]?.healthcheck?.test ?? []
    assert.equal(form, 'CMD')
    return (await run('podman', ['exec', await container(service), ...command])).code === 0
  }

  async function instanceLogs(service: string): Promise<string> {
    return await must('podman', ['logs', await container(service)])
  }

  before(async () => {
    await assertImagesBuilt()
    const port = await freePort()
    url = `http://127.0.0.1:${port}`
    env = {
      POSTGRES_PASSWORD: randomBytes(18).toString('hex'),
      PLANTSTORE_IMAGE: TEST_IMAGE,
      POSTGRES_IMAGE: STAND_IN_IMAGES.postgres,
      PROXY_IMAGE: STAND_IN_IMAGES.proxy,
      PLANTSTORE_PORT: `127.0.0.1:${port}`,
    }
    // podman-compose starts the services in dependency order but does not wait for health:
    // the instances may exit once while PostgreSQL initialises, and restart by their policy.
    await compose(['up', '--detach'])
  })

  after(async () => {
    if (!env) return
    const ids = await run('podman', ['ps', '--all', '--quiet', '--filter', `label=io.podman.compose.project=${project}`])
    // --volumes: the instances' anonymous /data volumes go with them.
    for (const id of ids.stdout.trim().split('\n').filter(Boolean)) await run('podman', ['rm', '--force', '--volumes', '--time', '0', id])
    await run('podman-compose', ['--project-name', project, '--file', COMPOSE_FILE, 'down', '--volumes'], { env })
    await run('podman', ['network', 'rm', '--force', `${project}_default`])
  })

  test('the proxy answers /readyz once PostgreSQL and both instances are up', async () => {
    await waitUntil('ready through the proxy', async () => ((await fetch(`${url}/readyz`)).status === 200 ? true : null), 180_000)
    api = await Api.connect(url)
  })

  test('the health checks compose.yaml declares pass for PostgreSQL and each instance', async () => {
    for (const service of ['postgres', 'plantstore-1', 'plantstore-2']) {
      assert.ok(await waitUntil(`${service} healthy`, async () => ((await healthy(service)) ? true : null), 60_000))
    }
  })

  test('compose logs show one first-start token, from one of the two instances', async () => {
    const result = await run(
      'podman-compose',
      ['--project-name', project, '--file', COMPOSE_FILE, 'logs', 'plantstore-1', 'plantstore-2'],
      { env },
    )
    const tokens = new Set((result.stdout + result.stderr).match(/pst_[A-Za-z0-9_-]{20,}/g))
    assert.equal(tokens.size, 1, 'exactly one token, though both instances started on the empty database')
    admin = [...tokens][0] ?? ''
    assert.equal((await api.request('GET', '/plants', { token: admin })).status, 200)
  })

  test('a token made with exec … plantstore token create creates id 2^53+1, and both instances serve it', async () => {
    // As an operator would: a CLI run that could not connect in time (a busy machine) is run again, at most three times.
    let made = await run('podman', ['exec', await container('plantstore-2'), 'plantstore', 'token', 'create', '--subject', 'gardener'])
    for (let tries = 1; tries < 3 && made.code !== 0 && /database unavailable/.test(made.stderr); tries++) {
      made = await run('podman', ['exec', await container('plantstore-2'), 'plantstore', 'token', 'create', '--subject', 'gardener'])
    }
    assert.equal(made.code, 0, made.stderr)
    const token = made.stdout.trim()
    // As a client would: a 503 (the instance could not reach PostgreSQL in time on a busy machine)
    // changed nothing and is sent again after its Retry-After, at most three times.
    let created = await api.createPlant(token, { id: BIG_ID, name: 'fern' })
    for (let tries = 1; tries < 3 && created.status === 503; tries++) {
      await new Promise((resolve) => setTimeout(resolve, Number(created.headers.get('retry-after') ?? 1) * 1_000))
      created = await api.createPlant(token, { id: BIG_ID, name: 'fern' })
    }
    assert.equal(created.status, 200, created.text)
    assert.equal(created.headers.get('location'), `/plants/${BIG_ID}`)
    for (let i = 0; i < 6; i += 1) {
      const plant = await api.request('GET', `/plants/${BIG_ID}`, { token })
      assert.equal(plant.status, 200)
      assert.deepEqual(plant.body, { name: 'fern' })
    }
    for (const service of ['plantstore-1', 'plantstore-2']) {
      await waitUntil(
        `${service} served the plant`,
        async () => ((await instanceLogs(service)).includes(`"url":"/plants/${BIG_ID}"`) ? true : null),
        10_000,
      )
    }
  })

  test('the instances take the client address from the proxy, not from a forged X-Forwarded-For', async () => {
    const answer = await api.request('GET', '/healthz', { headers: { 'x-forwarded-for': '203.0.113.7' } })
    assert.equal(answer.status, 200)
    const requestId = answer.headers.get('x-request-id')
    assert.ok(requestId)
    const proxyAddress = (
      await must('podman', ['inspect', '--format', '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}', await container('proxy')])
    ).trim()
    const line = await waitUntil(
      'the request logged',
      async () => {
        const logs = (await instanceLogs('plantstore-1')) + (await instanceLogs('plantstore-2'))
        return logs.split('\n').find((entry) => entry.includes(requestId)) ?? null
      },
      10_000,
    )
    const { remoteAddress } = JSON.parse(line) as { remoteAddress: string }
    assert.notEqual(remoteAddress, '203.0.113.7')
    assert.notEqual(remoteAddress, proxyAddress, 'TRUST_PROXY makes the instances look past the proxy')
  })

  test('with PostgreSQL stopped the instances report not ready, and recover when it is back', async () => {
    await compose(['stop', 'postgres'])
    await waitUntil('not ready without PostgreSQL', async () => ((await healthy('plantstore-1')) ? null : true), 60_000)
    assert.equal((await fetch(`${url}/readyz`)).status, 503)
    await compose(['start', 'postgres'])
    await waitUntil('ready again', async () => ((await healthy('plantstore-1')) && (await healthy('plantstore-2')) ? true : null), 120_000)
  })
})

if (unavailable) console.log(`# the compose test is skipped: ${unavailable}`)
