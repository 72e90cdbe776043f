import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { assertImagesBuilt, TEST_IMAGE } from '../../support/container/image.js'
import { containersUnavailable, must, run } from '../../support/container/podman.js'
import { REPO_ROOT } from '../../support/service.js'
import { freePort, waitUntil } from '../../support/container/waiting.js'
import { Api } from '../helpers/api.js'

const BIG_ID = 9007199254740993n // 2^53 + 1: a double would round it to its neighbour

const unavailable = await containersUnavailable()

describe('the container image', { skip: unavailable ?? false }, () => {
  const suffix = randomBytes(4).toString('hex')
  const volume = `plantstore-test-data-${suffix}`
  const names: string[] = []
  let port: number
  let url: string

  const replicaVolume = `plantstore-test-replica-${suffix}`
  const litestreamVolumes = [replicaVolume, `${volume}-a`, `${volume}-b`]

  /** Starts the image on the test volume; the host's network, as this VM has no other that works. */
  async function start(name: string, extra: string[] = []): Promise<void> {
    names.push(name)
    // HOST stays the image's 0.0.0.0 in a real deployment; on the host's network the test keeps it to loopback.
    await must('podman', [
      'run',
      '--detach',
      '--name',
      name,
      '--network',
      'host',
      '--env',
      `PORT=${port}`,
      '--env',
      'HOST=127.0.0.1',
      ...(extra.length > 0 ? extra : ['--volume', `${volume}:/data`]),
      TEST_IMAGE,
    ])
    await waitUntil(`${name} ready`, async () => ((await fetch(`${url}/readyz`)).status === 200 ? true : null))
  }

  async function logs(name: string): Promise<{ stdout: string; stderr: string }> {
    const result = await run('podman', ['logs', name])
    return { stdout: result.stdout, stderr: result.stderr }
  }

  before(async () => {
    await assertImagesBuilt()
    port = await freePort()
    url = `http://127.0.0.1:${port}`
  })

  after(async () => {
    for (const name of names) await run('podman', ['rm', '--force', '--time', '0', name])
    for (const each of [volume, ...litestreamVolumes]) await run('podman', ['volume', 'rm', '--force', each])
  })

  test('the image is set to run as a non-root user, on port 8080 of 0.0.0.0, with /data as a volume', async () => {
    const [config] = JSON.parse(await must('podman', ['image', 'inspect', TEST_IMAGE])) as {
      Config: {
        User: string
        Env: string[]
        ExposedPorts: Record<string, unknown>
        Volumes: Record<string, unknown>
        Entrypoint: string[]
        Cmd: string[]
        Labels: Record<string, string>
      }
    }[]
    assert.ok(config)
    assert.notEqual(config.Config.User, '')
    assert.notEqual(config.Config.User, '0')
    assert.notEqual(config.Config.User, 'root')
    assert.ok(config.Config.Env.includes('HOST=0.0.0.0'))
    assert.ok(config.Config.Env.includes('PORT=8080'))
    assert.ok(config.Config.Env.includes('DATABASE_URL=sqlite:/data/plantstore.db'))
    assert.deepEqual(Object.keys(config.Config.ExposedPorts), ['8080/tcp'])
    assert.deepEqual(Object.keys(config.Config.Volumes), ['/data'])
    assert.deepEqual(config.Config.Entrypoint, ['/app/bin/container-entrypoint'])
    assert.deepEqual(config.Config.Cmd, ['serve'])
    assert.equal(config.Config.Labels['org.opencontainers.image.title'], 'Plant Store')
  })

  test('no package the lockfile marks development-only is installed in the image', async () => {
    const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> }
    const devOnly = Object.entries(lock.packages)
      .filter(([path, entry]) => entry.dev === true && path.startsWith('node_modules/'))
      .map(([path]) => path)
    assert.ok(devOnly.includes('node_modules/typescript') && devOnly.length > 100)
    const inImage = (paths: string[]) =>
      must('podman', [
        'run',
        '--rm',
        '--network',
        'none',
        '--entrypoint',
        'node',
        TEST_IMAGE,
        '-e',
        `const fs = require('node:fs'); console.log(JSON.stringify(${JSON.stringify(paths)}.filter((path) => fs.existsSync('/app/' + path + '/package.json'))))`,
      ])
    assert.deepEqual(JSON.parse(await inImage(devOnly)), [])
    assert.deepEqual(
      JSON.parse(await inImage(['node_modules/fastify', 'node_modules/better-sqlite3'])),
      ['node_modules/fastify', 'node_modules/better-sqlite3'],
      'the production dependencies are there',
    )
  })

  test('every symbolic link in /app resolves', async () => {
    const dangling = await must('podman', ['run', '--rm', '--network', 'none', '--entrypoint', 'find', TEST_IMAGE, '/app', '-xtype', 'l'])
    assert.equal(dangling.trim(), '')
  })

  describe('a single node with SQLite on a volume', () => {
    const first = `plantstore-test-${suffix}-1`
    const second = `plantstore-test-${suffix}-2`
    let token: string
    let api: Api

    before(async () => {
      await start(first)
      api = await Api.connect(url)
    })

    test('/readyz answers 200 and the first-start token is on standard error', async () => {
      assert.equal((await fetch(`${url}/readyz`)).status, 200)
      const { stdout, stderr } = await logs(first)
      const admin = /^(pst_\S+)$/m.exec(stderr)?.[1]
      assert.ok(admin, `no token in standard error: ${stderr}`)
      assert.ok(!stdout.includes(admin), 'the token is not in the log lines')
      assert.equal((await api.request('GET', '/plants', { token: admin })).status, 200)
    })

    test('node itself is PID 1 and runs as that user, not as root', async () => {
      assert.equal((await must('podman', ['exec', first, 'id', '-u'])).trim(), '10001')
      const top = await must('podman', ['top', first, 'pid', 'user', 'args'])
      assert.match(top, /^1\s+plantstore\s+node \/app\/bin\/plantstore serve\s*$/m)
    })

    test('the service user may write /data but not the application, and the image holds no compiler', async () => {
      assert.equal((await run('podman', ['exec', first, 'touch', '/data/.probe'])).code, 0)
      for (const folder of ['/app', '/app/node_modules', '/usr/local/bin']) {
        assert.notEqual((await run('podman', ['exec', first, 'touch', `${folder}/.probe`])).code, 0, `${folder} is not writable`)
      }
      const compilers = await run('podman', ['exec', first, 'sh', '-c', 'command -v g++ gcc cc make python3'])
      assert.equal(compilers.stdout.trim(), '')
    })

    test('exec … plantstore token create makes a token that creates a plant with id 2^53+1', async () => {
      token = (await must('podman', ['exec', first, 'plantstore', 'token', 'create', '--subject', 'gardener'])).trim()
      assert.match(token, /^pst_/)
      const created = await api.createPlant(token, { id: BIG_ID, name: 'fern' })
      assert.equal(created.status, 200, created.text)
      assert.equal(created.headers.get('location'), `/plants/${BIG_ID}`)
      assert.equal((await api.request('GET', `/plants/${BIG_ID - 1n}`, { token })).status, 404)
    })

    test('SIGTERM stops the container with exit code 0 within 10 s', async () => {
      const started = Date.now()
      // podman stop sends SIGTERM, then SIGKILL (exit 137) if the process is still there after 10 s.
      await must('podman', ['stop', '--time', '10', first], { timeoutMs: 30_000 })
      const elapsed = Date.now() - started
      assert.equal((await must('podman', ['inspect', '--format', '{{.State.ExitCode}}', first])).trim(), '0')
      assert.ok(elapsed < 10_000, `stopped after ${elapsed} ms`)
    })

    test('a new container on the same volume keeps the plant and makes no second first-start token', async () => {
      await start(second)
      const plant = await api.request('GET', `/plants/${BIG_ID}`, { token })
      assert.equal(plant.status, 200)
      assert.deepEqual(plant.body, { name: 'fern' })
      assert.doesNotMatch((await logs(second)).stderr, /pst_/)
    })
  })

  describe('under Litestream, with a file replica on a second volume (LITESTREAM_REPLICA_URL)', () => {
    const replicated = (data: string) => [
      '--env',
      'LITESTREAM_REPLICA_URL=file:///replica',
      '--volume',
      `${data}:/data`,
      // :U gives the volume to the image's user, as a real replica's credentials would be given.
      '--volume',
      `${replicaVolume}:/replica:U`,
    ]
    const firstName = `plantstore-test-${suffix}-litestream-1`
    const secondName = `plantstore-test-${suffix}-litestream-2`
    const planted: bigint[] = []
    let token: string
    let api: Api

    before(async () => {
      // The single node's containers share the host's network and port: they go first.
      for (const name of names) await run('podman', ['rm', '--force', '--time', '0', name])
      await start(firstName, replicated(`${volume}-a`))
      api = await Api.connect(url)
    })

    test('Litestream is PID 1 and the service its child, on the database of the data volume', async () => {
      const top = await must('podman', ['top', firstName, 'pid', 'args'])
      assert.match(top, /^\s*1\s+litestream replicate -config \/app\/deploy\/litestream.yml -exec node \/app\/bin\/plantstore serve\s*$/m)
      assert.match(top, /node \/app\/bin\/plantstore serve/)
    })

    test('SIGTERM exits 0 within 10 s, after the last write is replicated', async () => {
      token = (await must('podman', ['exec', firstName, 'plantstore', 'token', 'create', '--subject', 'replicated'])).trim()
      for (let id = 1n; id <= 50n; id++) {
        assert.equal((await api.createPlant(token, { id, name: `replicated ${id}` })).status, 200)
        planted.push(id)
      }
      // The last one is acknowledged just before the stop: only the final sync can carry it.
      assert.equal((await api.createPlant(token, { id: BIG_ID, name: 'the last' })).status, 200)
      planted.push(BIG_ID)
      const started = Date.now()
      await must('podman', ['stop', '--time', '10', firstName], { timeoutMs: 30_000 })
      const elapsed = Date.now() - started
      assert.equal((await must('podman', ['inspect', '--format', '{{.State.ExitCode}}', firstName])).trim(), '0')
      assert.ok(elapsed < 10_000, `stopped after ${elapsed} ms`)
    })

    test('with the container and its data volume gone, a new one on an empty volume restores every acknowledged plant', async () => {
      await must('podman', ['rm', '--force', firstName])
      await must('podman', ['volume', 'rm', '--force', `${volume}-a`])
      await start(secondName, replicated(`${volume}-b`))
      for (const id of planted) assert.equal((await api.request('GET', `/plants/${id}`, { token })).status, 200, `plant ${id}`)
      assert.doesNotMatch((await logs(secondName)).stderr, /pst_/, 'the tokens came back too: no new first-start token')
    })
  })
})

if (unavailable) console.log(`# the container test is skipped: ${unavailable}`)
