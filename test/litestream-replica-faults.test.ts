import assert from 'node:assert/strict'
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { chmodSync, chownSync, mkdirSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { pathToFileURL } from 'node:url'
import { ReplicationLag } from '../src/replication/replication-lag.js'
import { LITESTREAM, LITESTREAM_CONFIG } from '../support/litestream.js'
import { pause } from '../support/receiver.js'
import { REPO_ROOT, startService, tempFolder } from '../support/service.js'
import { Api } from './helpers/api.js'

// The service under `litestream replicate -exec` (Litestream 0.3.13, as the image runs it) with
// a `file` replica that cannot be written: at start it must stop with one line, and when the
// replica stops taking writes later, plantstore_replication_lag_seconds must grow.

const CLI = join(REPO_ROOT, 'bin', 'plantstore')
const asNobody = (...args: string[]) => spawnSync('runuser', ['-u', 'nobody', '--', ...args], { encoding: 'utf8', timeout: 60_000 })

function skipReason(): string | false {
  if (LITESTREAM === null) return `Litestream's npm package has no binary for ${process.platform}-${process.arch}`
  if (process.getuid?.() !== 0) return 'needs root, to run Litestream and the service as the user nobody'
  const readable = asNobody(process.execPath, '-e', `require('fs').accessSync(${JSON.stringify(CLI)})`).status === 0
  return readable ? false : 'needs runuser and a checkout the user nobody can read'
}
const skip = skipReason()

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  server.close()
  return port
}

interface UnderLitestream {
  process: ChildProcess
  output(): string
  /** Its exit code, or null if it still runs after `withinMs`. */
  exited(withinMs: number): Promise<number | null>
  stop(): Promise<void>
}

/**
 * `litestream replicate -exec "plantstore serve"` as the image runs it, as the user nobody (or
 * after `wrapper`, such as an `unshare` that mounts a read-only file system first).
 */
function serveUnderLitestream(env: Record<string, string>, wrapper: string[] = ['runuser', '-u', 'nobody', '--']): UnderLitestream {
  // As the image's entrypoint does: Litestream's configuration names the file DATABASE_URL names.
  const database = { PLANTSTORE_DB_PATH: (env.DATABASE_URL ?? '').slice('sqlite:'.length) }
  const vars = Object.entries({ PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...database, ...env }).map(
    ([k, v]) => `${k}=${v}`,
  )
  const command = [...wrapper, 'env', '-i', ...vars, LITESTREAM as string, 'replicate', '-config', LITESTREAM_CONFIG]
  const child = spawn(command[0] as string, [...command.slice(1), '-exec', `${process.execPath} ${CLI} serve`], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exit = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), signal)
    } catch {
      // Already gone.
    }
  }
  return {
    process: child,
    output: () => output,
    exited: async (withinMs) => {
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), withinMs)))
      const code = await Promise.race([exit.then(([exitCode]) => exitCode), late])
      clearTimeout(timer)
      return code
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      signalGroup('SIGTERM')
      const timer = setTimeout(() => signalGroup('SIGKILL'), 10_000)
      await exit
      clearTimeout(timer)
    },
  }
}

/** A folder the user nobody owns, inside a temporary folder others may enter. */
function nobodysFolder(parent: string, name: string): string {
  const path = join(parent, name)
  mkdirSync(path)
  chownSync(path, Number(asNobody('id', '-u').stdout.trim()), Number(asNobody('id', '-g').stdout.trim()))
  return path
}

describe('Litestream with a replica that cannot be written', { skip }, () => {
  test('a replica folder the service user cannot write stops the start with one line: the replica and permission denied', async () => {
    const folder = tempFolder()
    chmodSync(folder.path, 0o755)
    // A volume mounted as root: the service user may read it, not write it.
    const mount = join(folder.path, 'replica-volume')
    mkdirSync(mount, { mode: 0o755 })
    const replica = join(mount, 'plantstore')
    const run = serveUnderLitestream({
      DATABASE_URL: `sqlite:${join(nobodysFolder(folder.path, 'data'), 'plantstore.db')}`,
      LITESTREAM_REPLICA_URL: pathToFileURL(replica).href,
    })
    try {
      const code = await run.exited(30_000)
      assert.notEqual(code, null, `it stopped instead of serving without replication: ${run.output()}`)
      assert.notEqual(code, 0)
      const ours = run
        .output()
        .split('\n')
        .filter((line) => line.startsWith('plantstore:'))
      assert.equal(ours.length, 1, run.output())
      assert.match(
        ours[0] as string,
        new RegExp(
          `^plantstore: cannot start: LITESTREAM_REPLICA_URL: the replica ${replica} cannot be written: permission denied \\(${mount} `,
        ),
      )
    } finally {
      await run.stop()
      folder.remove()
    }
  })

  test('a replica on a read-only file system stops the start with one line: the replica and read-only', async (t) => {
    const folder = tempFolder()
    const mount = join(folder.path, 'replica-volume')
    mkdirSync(mount)
    if (spawnSync('unshare', ['-m', 'mount', '-t', 'tmpfs', '-o', 'ro', 'none', mount]).status !== 0) {
      folder.remove()
      t.skip('needs unshare and mount (a mount namespace of its own)')
      return
    }
    const replica = join(mount, 'plantstore')
    const run = serveUnderLitestream(
      { DATABASE_URL: `sqlite:${join(folder.path, 'data', 'plantstore.db')}`, LITESTREAM_REPLICA_URL: pathToFileURL(replica).href },
      ['unshare', '-m', 'sh', '-c', `mount -t tmpfs -o ro none ${mount} && exec "$@"`, 'sh'],
    )
    try {
      const code = await run.exited(30_000)
      assert.notEqual(code, null, `it stopped instead of serving without replication: ${run.output()}`)
      const ours = run
        .output()
        .split('\n')
        .filter((line) => line.startsWith('plantstore:'))
      assert.equal(ours.length, 1, run.output())
      assert.match(
        ours[0] as string,
        new RegExp(`^plantstore: cannot start: LITESTREAM_REPLICA_URL: the replica ${replica} cannot be written: read-only \\(${mount} `),
      )
    } finally {
      await run.stop()
      folder.remove()
    }
  })

  test('plantstore_replication_lag_seconds stays small while the replica takes writes, and grows once it cannot', async () => {
    const folder = tempFolder()
    chmodSync(folder.path, 0o755)
    const replicaParent = nobodysFolder(folder.path, 'replica-volume')
    const replica = join(replicaParent, 'plantstore')
    const database = join(nobodysFolder(folder.path, 'data'), 'plantstore.db')
    const run = serveUnderLitestream({
      DATABASE_URL: `sqlite:${database}`,
      LITESTREAM_REPLICA_URL: pathToFileURL(replica).href,
      LITESTREAM_METRICS_ADDR: `127.0.0.1:${await freePort()}`,
    })
    try {
      for (const since = Date.now(); !/Server listening at/.test(run.output()) && Date.now() - since < 30_000;) await pause(100)
      const url = /Server listening at (http:\/\/127\.0\.0\.1:[0-9]+)/.exec(run.output())?.[1]
      assert.ok(url !== undefined, `the service listens: ${run.output()}`)
      const token = /\n\n(pst_\S+)\n/.exec(run.output())?.[1] as string
      const api = await Api.connect(url)
      const lag = async () => {
        const text = (await api.request('GET', '/metrics')).text
        const value = /^plantstore_replication_lag_seconds (\S+)$/m.exec(text)?.[1]
        assert.ok(value !== undefined, 'plantstore_replication_lag_seconds is served')
        return Number(value)
      }
      let nextId = 1
      /** A plant every 100 ms for `ms`, each answered 200; the lag read at the end. */
      const writeFor = async (ms: number) => {
        for (const since = Date.now(); Date.now() - since < ms;) {
          const id = nextId++
          assert.equal((await api.createPlant(token, { id, name: `replicated ${id}` })).status, 200)
          await pause(100)
        }
        return lag()
      }

      const healthy = [await writeFor(4_000), await writeFor(2_000), await writeFor(2_000)]
      for (const seconds of healthy) assert.ok(seconds <= 3, `a replica taking writes lags little: ${healthy.join(', ')} s`)

      // The replica's volume is taken away from the service user: Litestream's writes fail.
      spawnSync('chown', ['-R', 'root:root', replicaParent])
      spawnSync('chmod', ['-R', 'go-w', replicaParent])
      const first = await writeFor(5_000)
      const second = await writeFor(4_000)
      console.log(`# replication lag: healthy ${healthy.join(', ')} s; unwritable ${first} s, then ${second} s`)
      assert.ok(first >= 3, `the lag grows once the replica cannot be written: ${first} s after 5 s`)
      assert.ok(second >= first + 3, `and keeps growing with time: ${first} s, then ${second} s 4 s later`)
      // Seen with Litestream 0.3.13: no line at all, as its write of the WAL segment never returns
      // (the client's error leaves the pipe it copies into unread); the lag is the only sign.
      console.log(`# Litestream's error lines meanwhile: ${run.output().match(/level=ERROR/g)?.length ?? 0}`)
    } finally {
      await run.stop()
      folder.remove()
    }
  })
})

describe('plantstore_replication_lag_seconds on a healthy replica', { skip }, () => {
  test('it returns to 0 within seconds of the replica catching up, after the WAL rolled over several times', async () => {
    const folder = tempFolder()
    chmodSync(folder.path, 0o755)
    const replica = join(nobodysFolder(folder.path, 'replica-volume'), 'plantstore')
    const database = join(nobodysFolder(folder.path, 'data'), 'plantstore.db')
    const litestreamAddr = `127.0.0.1:${await freePort()}`
    const run = serveUnderLitestream({
      DATABASE_URL: `sqlite:${database}`,
      LITESTREAM_REPLICA_URL: pathToFileURL(replica).href,
      LITESTREAM_METRICS_ADDR: litestreamAddr,
    })
    try {
      for (const since = Date.now(); !/Server listening at/.test(run.output()) && Date.now() - since < 30_000;) await pause(100)
      const url = /Server listening at (http:\/\/127\.0\.0\.1:[0-9]+)/.exec(run.output())?.[1]
      assert.ok(url !== undefined, `the service listens: ${run.output()}`)
      const token = /\n\n(pst_\S+)\n/.exec(run.output())?.[1] as string
      const api = await Api.connect(url)
      const lag = async () => Number(/^plantstore_replication_lag_seconds (\S+)$/m.exec((await api.request('GET', '/metrics')).text)?.[1])
      const shadowIndex = async () =>
        Number(/^litestream_shadow_wal_index\{[^}]*\} (\S+)$/m.exec(await (await fetch(`http://${litestreamAddr}/metrics`)).text())?.[1])
      // 8 writers until Litestream's shadow WAL has rolled over 3 times (bounded: 60 s, 8 x 1500 plants).
      let rolled = false
      const writer = async (first: number) => {
        for (let id = first; id < first + 1500 && !rolled; id++) {
          assert.equal((await api.createPlant(token, { id, name: `replicated ${id} ${'x'.repeat(80)}` })).status, 200)
        }
      }
      const watcher = async () => {
        for (const since = Date.now(); !rolled && Date.now() - since < 60_000; await pause(500)) rolled = (await shadowIndex()) >= 3
        rolled = true
      }
      await Promise.all([watcher(), ...Array.from({ length: 8 }, (_, w) => writer(1 + w * 1500))])
      const index = await shadowIndex()
      assert.ok(index >= 3, `the WAL rolled over 3 times: shadow WAL index ${index}`)
      const idle: number[] = []
      for (let read = 0; read < 10; read++) {
        await pause(1_000)
        idle.push(await lag())
      }
      console.log(`# lag each second once idle, after shadow WAL index ${index}: ${idle.join(', ')} s`)
      assert.ok(
        idle.slice(5).every((seconds) => seconds === 0),
        `0 within 5 s of the writes ending: ${idle.join(', ')} s`,
      )
      // And again after one more write, once the replica takes it.
      assert.equal((await api.createPlant(token, { id: 99_999, name: 'one more' })).status, 200)
      const after: number[] = []
      for (let read = 0; read < 6; read++) {
        await pause(1_000)
        after.push(await lag())
      }
      assert.ok(
        after.slice(3).every((seconds) => seconds === 0),
        `0 within 3 s of one more write: ${after.join(', ')} s`,
      )
    } finally {
      await run.stop()
      folder.remove()
    }
  })
})

/** A database the user nobody owns, migrated and with a token already: the service's start writes nothing to it. */
function quietDatabase(parent: string): { database: string; token: string } {
  const database = join(nobodysFolder(parent, 'data'), 'plantstore.db')
  const cli = (...args: string[]) => asNobody('env', `DATABASE_URL=sqlite:${database}`, process.execPath, CLI, ...args)
  const migrated = cli('migrate')
  assert.equal(migrated.status, 0, migrated.stderr)
  const token = cli('token', 'create', '--subject', 'quiet')
  assert.equal(token.status, 0, token.stderr)
  return { database, token: token.stdout.trim() }
}

/** The service's address once it listens under Litestream (bounded: 30 s). */
async function listening(run: UnderLitestream): Promise<string> {
  for (const since = Date.now(); !/Server listening at/.test(run.output()) && Date.now() - since < 30_000;) await pause(100)
  const url = /Server listening at (http:\/\/127\.0\.0\.1:[0-9]+)/.exec(run.output())?.[1]
  assert.ok(url !== undefined, `the service listens: ${run.output()}`)
  return url
}

/** plantstore_replication_lag_seconds once a second, `count` times. */
async function lagEachSecond(url: string, count: number): Promise<number[]> {
  const readings: number[] = []
  for (let read = 0; read < count; read++) {
    await pause(1_000)
    const text = await (await fetch(`${url}/metrics`)).text()
    readings.push(Number(/^plantstore_replication_lag_seconds (\S+)$/m.exec(text)?.[1]))
  }
  return readings
}

/**
 * A first run under Litestream with a healthy `file` replica: it makes the database's generation
 * (kept beside the file, so a later run of Litestream continues it) and takes a write, then stops
 * gracefully. The database is quiet from then on.
 */
async function replicatedOnce(folder: string): Promise<{ database: string; token: string; replicaUrl: string }> {
  const { database, token } = quietDatabase(folder)
  const replicaUrl = pathToFileURL(join(nobodysFolder(folder, 'replica-volume'), 'plantstore')).href
  const first = serveUnderLitestream({
    DATABASE_URL: `sqlite:${database}`,
    LITESTREAM_REPLICA_URL: replicaUrl,
    LITESTREAM_METRICS_ADDR: `127.0.0.1:${await freePort()}`,
  })
  try {
    const api = await Api.connect(await listening(first))
    assert.equal((await api.createPlant(token, { id: 1, name: 'replicated' })).status, 200)
    await pause(2_500)
  } finally {
    await first.stop()
  }
  return { database, token, replicaUrl }
}

// Litestream 0.3.13 serves a replica's position (litestream_replica_wal_index) only once it has
// written a WAL segment since Litestream started. On a new generation that is within a second
// (its first snapshot and segment); when it continues a generation on a quiet database, it writes
// nothing until the database does: a healthy replica and one that refuses every write then serve
// the same series, and only a write tells them apart.
describe('plantstore_replication_lag_seconds for a replica that has taken nothing since Litestream started', { skip }, () => {
  test('an S3 replica refusing its credential after a restart: the lag grows while the database is quiet', async () => {
    // An S3 endpoint that refuses every request as a wrong access key, as S3 does.
    const requests: string[] = []
    const s3 = createHttpServer((request, response) => {
      requests.push(`${request.method} ${request.url}`)
      response.writeHead(403, { 'content-type': 'application/xml' })
      response.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>InvalidAccessKeyId</Code><Message>no such key</Message></Error>')
    }).listen(0, '127.0.0.1')
    await once(s3, 'listening')
    const folder = tempFolder()
    chmodSync(folder.path, 0o755)
    const { database } = await replicatedOnce(folder.path)
    // Restarted with the replica moved to an S3 store whose key is wrong.
    const litestreamAddr = `127.0.0.1:${await freePort()}`
    const run = serveUnderLitestream({
      DATABASE_URL: `sqlite:${database}`,
      LITESTREAM_REPLICA_URL: `s3://plantstore.localhost:${(s3.address() as { port: number }).port}/replica`,
      AWS_ACCESS_KEY_ID: 'AKIAWRONGKEY',
      AWS_SECRET_ACCESS_KEY: 'wrong',
      LITESTREAM_METRICS_ADDR: litestreamAddr,
    })
    try {
      const url = await listening(run)
      const readings = await lagEachSecond(url, 16)
      const litestream = await (await fetch(`http://${litestreamAddr}/metrics`)).text()
      console.log(`# S3 refusing after a restart, quiet database: lag each second ${readings.join(', ')} s`)
      assert.ok(requests.length > 0, 'Litestream tried the S3 endpoint')
      assert.doesNotMatch(litestream, /^litestream_replica_wal_index/m, 'Litestream serves no position for the replica')
      const last = readings.at(-1) as number
      assert.ok(last >= 12, `the lag grows from the service's first read of Litestream: ${readings.join(', ')} s`)
      assert.ok(last >= (readings.at(-5) as number) + 3, `and keeps growing: ${readings.join(', ')} s`)
    } finally {
      await run.stop()
      s3.close()
      folder.remove()
    }
  })

  test('a healthy file replica after a restart: the lag stays 0 while the database is quiet', async () => {
    const folder = tempFolder()
    chmodSync(folder.path, 0o755)
    const { database, replicaUrl } = await replicatedOnce(folder.path)
    const litestreamAddr = `127.0.0.1:${await freePort()}`
    const run = serveUnderLitestream({
      DATABASE_URL: `sqlite:${database}`,
      LITESTREAM_REPLICA_URL: replicaUrl,
      LITESTREAM_METRICS_ADDR: litestreamAddr,
    })
    try {
      const url = await listening(run)
      const readings = await lagEachSecond(url, 16)
      const position = /^litestream_replica_wal_index\{[^}]*\} (\S+)$/m.exec(await (await fetch(`http://${litestreamAddr}/metrics`)).text())
      console.log(
        `# healthy file replica after a restart, quiet database: lag each second ${readings.join(', ')} s; position ${position?.[1]}`,
      )
      assert.deepEqual(
        readings.filter((seconds) => seconds !== 0),
        [],
        `0 at each read: ${readings.join(', ')} s`,
      )
    } finally {
      await run.stop()
      folder.remove()
    }
  })
})

describe('plantstore_replication_lag_seconds while Litestream cannot be read', () => {
  test('an endless body at LITESTREAM_METRICS_ADDR is read no further than 1 MiB: /metrics and /healthz stay fast', async () => {
    // A line of 1 MB each millisecond, regardless of the reader, until 300 MB or the client leaves.
    const line = `${'a'.repeat(1_000_000)}\n`
    const endless = createHttpServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' })
      let sent = 0
      const timer = setInterval(() => (++sent > 300 || response.destroyed ? response.end() : response.write(line)), 1)
      response.on('close', () => clearInterval(timer))
      request.on('close', () => clearInterval(timer))
    }).listen(0, '127.0.0.1')
    await once(endless, 'listening')
    const folder = tempFolder()
    const service = await startService({
      DATABASE_URL: `sqlite:${join(folder.path, 'plantstore.db')}`,
      LITESTREAM_METRICS_ADDR: `127.0.0.1:${(endless.address() as { port: number }).port}`,
      // The warning names the first reason of the outage (on a busy machine the first read at
      // start may time out); each later reason is logged at debug.
      LOG_LEVEL: 'debug',
    })
    try {
      const timings: number[] = []
      for (let read = 0; read < 10; read++) {
        for (const path of ['/metrics', '/healthz']) {
          const since = performance.now()
          const response = await fetch(`${service.url}${path}`)
          await response.text()
          timings.push(Math.round(performance.now() - since))
        }
        await pause(300)
      }
      const metrics = await (await fetch(`${service.url}/metrics`)).text()
      console.log(`# /metrics and /healthz against an endless Litestream body: ${timings.join(', ')} ms`)
      assert.ok(Math.max(...timings) < 500, `each answered within 500 ms: ${timings.join(', ')} ms`)
      assert.match(metrics, /^plantstore_replication_lag_seconds [1-9]/m, 'the lag grows: nothing is known to be replicated')
      const warning = await service.waitForLog((log) => /larger than 1 MiB/.test(log))
      assert.match(warning, /"reason":"answered a body larger than 1 MiB".*"Litestream's metrics (cannot|still cannot) be read/)
    } finally {
      await service.stop()
      endless.closeAllConnections()
      endless.close()
      folder.remove()
    }
  })

  test('it grows from the first failed read, with one warning naming the URL and why, not one per read', async () => {
    const url = `http://127.0.0.1:${await freePort()}/metrics`
    let now = 1_000_000
    const warnings: [Record<string, unknown>, string][] = []
    const lag = new ReplicationLag(
      url,
      '/data/plantstore.db',
      (details, message) => warnings.push([details, message]),
      () => now,
    )
    for (let read = 0; read < 3; read++) {
      await lag.poll()
      now += 5_000
    }
    assert.equal(lag.seconds(), 15)
    assert.deepEqual(
      warnings.map(([details, message]) => [details.url, String(details.reason), message]),
      [
        [
          url,
          `connect ECONNREFUSED ${url.slice('http://'.length, -'/metrics'.length)}`,
          "Litestream's metrics cannot be read: plantstore_replication_lag_seconds grows until they can",
        ],
      ],
    )
  })

  test('a replica without a position: one touch per Litestream run, behind since the first read after 10 s, 0 once it has one', async () => {
    const database = '/data/plantstore.db'
    let started = '1.7e+09'
    let position = ''
    const metrics = () =>
      [
        `litestream_shadow_wal_index{db="${database}"} 0`,
        `litestream_shadow_wal_size{db="${database}"} 4152`,
        `litestream_total_wal_bytes{db="${database}"} 0`,
        `litestream_replica_validation_total{db="${database}",name="s3",status="ok"} 0`,
        position,
        `process_start_time_seconds ${started}`,
        '',
      ].join('\n')
    const server = createHttpServer((_request, response) => response.writeHead(200).end(metrics())).listen(0, '127.0.0.1')
    await once(server, 'listening')
    let now = 1_000_000
    let touches = 0
    const lag = new ReplicationLag(
      `http://127.0.0.1:${(server.address() as { port: number }).port}/metrics`,
      database,
      () => {},
      () => now,
      async () => {
        touches++
      },
    )
    const readings: number[] = []
    const readAfter = async (ms: number) => {
      now += ms
      await lag.poll()
      readings.push(lag.seconds())
    }
    try {
      await readAfter(0)
      await readAfter(5_000)
      await readAfter(4_999)
      await readAfter(1)
      await readAfter(3_000)
      assert.deepEqual(readings, [0, 0, 0, 10, 13], 'behind since the first read, once 10 s have passed without a position')
      assert.equal(touches, 1, 'one touch for the run')
      position = `litestream_replica_wal_index{db="${database}",name="s3"} 0\nlitestream_replica_wal_offset{db="${database}",name="s3"} 4152`
      await readAfter(1_000)
      assert.equal(readings.at(-1), 0, 'a replica that takes a position holds every write')
      // Litestream restarted: its replicas have no position again, and one more touch tells them apart.
      started = '1.8e+09'
      position = ''
      await readAfter(1_000)
      await readAfter(10_000)
      assert.deepEqual(readings.slice(-2), [0, 10])
      assert.equal(touches, 2, 'one touch per Litestream run')
    } finally {
      server.close()
    }
  })

  test('one warning per change of state, with the first reason: not one per reason text', async () => {
    // Litestream's address answers late (a timeout), not at all (refused), with 500, or with its metrics.
    let mode: 'hang' | 'error' | 'ok' = 'hang'
    const database = '/data/plantstore.db'
    const body = [
      `litestream_shadow_wal_index{db="${database}"} 0`,
      `litestream_shadow_wal_size{db="${database}"} 4152`,
      `litestream_total_wal_bytes{db="${database}"} 4152`,
      `litestream_replica_wal_index{db="${database}",name="file"} 0`,
      `litestream_replica_wal_offset{db="${database}",name="file"} 4152`,
      'process_start_time_seconds 1.7e+09',
      '',
    ].join('\n')
    const server = createHttpServer((_request, response) => {
      if (mode === 'error') response.writeHead(500).end()
      else if (mode === 'ok') response.writeHead(200, { 'content-type': 'text/plain' }).end(body)
    })
    const listen = async (port = 0) => {
      server.listen(port, '127.0.0.1')
      await once(server, 'listening')
      return (server.address() as { port: number }).port
    }
    const refuse = async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
    const port = await listen()
    const url = `http://127.0.0.1:${port}/metrics`
    const warnings: [Record<string, unknown>, string, string][] = []
    const lag = new ReplicationLag(url, database, (details, message, level) => warnings.push([details, message, level]))
    try {
      await lag.poll() // times out
      await refuse()
      await lag.poll() // refused
      await listen(port)
      await lag.poll() // times out again
      mode = 'error'
      await lag.poll() // answered 500
      mode = 'ok'
      await lag.poll()
      await lag.poll()
      await refuse()
      await lag.poll() // refused
      await lag.poll()
    } finally {
      server.closeAllConnections()
      if (server.listening) server.close()
    }
    const unreadable = "Litestream's metrics cannot be read: plantstore_replication_lag_seconds grows until they can"
    // Each later reason of an outage (refused, timed out, 500; a closed connection) is at debug only.
    const debug = warnings.filter(([, , level]) => level === 'debug')
    assert.ok(debug.length >= 3, `the first outage's three later reasons at debug: ${debug.length}`)
    assert.ok(debug.every(([, message]) => message === "Litestream's metrics still cannot be read"))
    assert.equal(debug[2]?.[0].reason, 'answered 500')
    warnings.splice(0, warnings.length, ...warnings.filter(([, , level]) => level !== 'debug'))
    assert.deepEqual(
      warnings.map(([, message, level]) => [level, message]),
      [
        ['warn', unreadable],
        ['info', "Litestream's metrics can be read again"],
        ['warn', unreadable],
      ],
    )
    assert.equal(warnings[0]?.[0].reason, 'The operation was aborted due to timeout')
    // The kept-alive connection closed under the reader, or refused on a new one.
    assert.match(String(warnings[2]?.[0].reason), new RegExp(`^(other side closed|connect ECONNREFUSED 127\\.0\\.0\\.1:${port})$`))
  })

  test('with WORKERS=2 one warning is logged, not one per worker, and the lag grows', async () => {
    const folder = tempFolder()
    const service = await startService({
      DATABASE_URL: `sqlite:${join(folder.path, 'plantstore.db')}`,
      WORKERS: '2',
      LITESTREAM_METRICS_ADDR: `127.0.0.1:${await freePort()}`,
    })
    try {
      const api = await Api.connect(service.url)
      // Both workers have started and read Litestream by the time the lag passes 3 s (bounded: 30 s).
      let seconds = 0
      for (const since = Date.now(); seconds < 3 && Date.now() - since < 30_000; await pause(250)) {
        seconds = Number(/^plantstore_replication_lag_seconds (\S+)$/m.exec((await api.request('GET', '/metrics')).text)?.[1])
      }
      assert.ok(seconds >= 3, `the lag grows while Litestream cannot be read: ${seconds} s`)
      await pause(1_000)
      const listening = service.stdout().match(/Server listening at/g)?.length ?? 0
      assert.equal(listening, 2, 'both workers serve')
      const warnings = service.stdout().match(/Litestream's metrics cannot be read/g)?.length ?? 0
      assert.equal(warnings, 1, service.stdout())
    } finally {
      await service.stop()
      folder.remove()
    }
  })
})
