import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { HaCluster, SUPERUSER_PASSWORD } from '../../support/ha/cluster.js'
import { waitFor } from '../../support/ha/processes.js'
import { keyedLoad, longestOutageMs, recoveredAt } from '../../support/ha/keyed-load.js'
import { Receiver } from '../../support/receiver.js'
import { type Service, makeToken, startService } from '../../support/service.js'

const TOOLS = ['patroni', 'patronictl', 'etcd', 'haproxy', 'pgbouncer', 'pgbackrest']
const missing = TOOLS.filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0)
const skip = missing.length > 0 ? `needs ${missing.join(', ')} (Debian's patroni, etcd-server, haproxy, pgbouncer, pgbackrest)` : false
if (skip && process.env.CI === 'true') throw new Error(`test:ha ${skip}, and CI=true`)

const WEBHOOKS = {
  WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
  WEBHOOK_RETRY_DELAYS: '200ms,500ms,1s,2s,2s,5s,5s,10s',
  WEBHOOK_TIMEOUT_MS: '2000',
}
/** What the contract promises: every instance writes again within this time of the new leader. */
const WRITES_AGAIN_WITHIN_MS = 15_000

async function call(url: string, token: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) {
  const answer = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  })
  return { status: answer.status, headers: answer.headers, text: await answer.text() }
}

/** Every plant id of the token's subject, read page by page. */
async function ownIds(url: string, token: string): Promise<Set<string>> {
  const answer = await call(`${url}/plants?tag=ha`, token)
  assert.equal(answer.status, 200, answer.text)
  // Ids are not in the Plant shape; the names carry them.
  return new Set([...answer.text.matchAll(/"ha plant (-?[0-9]+)"/g)].map((match) => match[1] as string))
}

describe('PostgreSQL high availability (deploy/ha/: Patroni, etcd, HAProxy, PgBouncer)', { skip }, () => {
  let cluster: HaCluster
  const services: Service[] = []
  let admin = ''
  let writer = ''
  const start = async (env: Record<string, string>) => {
    const service = await startService({ ...WEBHOOKS, ...env })
    services.push(service)
    return service
  }

  before(async () => {
    cluster = await HaCluster.start()
    // The first instance migrates the new cluster's database; tokens are made after it.
    await start({ DATABASE_URL: cluster.url('primary') })
    admin = await makeToken(cluster.url('primary'), 'ha-admin', '--scope', 'plants:read,plants:write,plants:admin,webhooks:manage')
    writer = await makeToken(cluster.url('primary'), 'ha-writer')
  })

  after(async () => {
    await Promise.all(services.map((service) => service.stop().catch(() => null)))
    await cluster?.stop({ keep: process.env.KEEP_HA === 'true' })
  })

  test('the plant routes work behind HAProxy', async () => {
    const { url } = services[0] as Service
    assert.equal((await call(`${url}/plants`, writer, 'POST', '{"id":9007199254740993,"name":"behind haproxy"}')).status, 200)
    assert.equal((await call(`${url}/plants/9007199254740993`, writer)).text, '{"name":"behind haproxy"}')
    assert.equal((await call(`${url}/plants/9007199254740992`, writer)).status, 404)
    assert.equal((await call(`${url}/plants/9007199254740993`, writer, 'DELETE')).status, 204)
    assert.equal((await fetch(`${url}/readyz`)).status, 200)
  })

  test('a wrong password is refused on every node, both HAProxy ports and PgBouncer', async () => {
    for (const where of [...cluster.nodes, 'primary', 'sync', 'pgbouncer'] as const) {
      const url = cluster.url(where).replace(SUPERUSER_PASSWORD, 'wrong')
      const refused = await cluster.rows(url, 'SELECT 1').then(
        () => 'connected',
        (error: Error) => error.message,
      )
      assert.match(refused, /password authentication failed|SASL authentication failed/, typeof where === 'string' ? where : where.name)
    }
  })

  test('every node runs with the max_connections deploy/ha gives (200)', async () => {
    for (const node of cluster.nodes) {
      const [row] = await cluster.rows<{ max_connections: string }>(cluster.url(node), 'SHOW max_connections')
      assert.equal(row?.max_connections, '200', node.name)
    }
  })

  test('an instance pointed at a standby serves reads, answers writes 503 with Retry-After, and is not ready', async () => {
    const standby = await cluster.syncStandby()
    assert.ok(standby, 'a sync standby')
    await call(`${services[0]?.url}/plants`, writer, 'POST', '{"id":71,"name":"seen on the standby"}')
    const service = await start({ DATABASE_URL: cluster.url(standby) })
    assert.equal((await call(`${service.url}/plants/71`, writer)).status, 200)
    const refused = await call(`${service.url}/plants`, writer, 'POST', '{"id":72,"name":"refused"}')
    assert.equal(refused.status, 503, refused.text)
    assert.ok(Number(refused.headers.get('retry-after')) >= 1, 'Retry-After')
    assert.deepEqual(JSON.parse(refused.text), { error: 503, message: 'the database is unavailable; try again later' })
    const ready = await fetch(`${service.url}/readyz`)
    assert.equal(ready.status, 503)
    assert.equal((await call(`${services[0]?.url}/plants/72`, writer)).status, 404, 'the refused write changed nothing')
    await service.stop()
  })

  test('reads sent to the sync standby (remote_apply) see every acknowledged write at once', async () => {
    const service = await start({ DATABASE_URL: cluster.url('primary'), DATABASE_READ_URL: cluster.url('sync') })
    for (let id = 1000; id < 1100; id++) {
      assert.equal((await call(`${service.url}/plants`, writer, 'POST', `{"id":${id},"name":"read back ${id}"}`)).status, 200)
      const read = await call(`${service.url}/plants/${id}`, writer)
      assert.equal(read.status, 200, `plant ${id} read at once from the standby`)
    }
    const metrics = await (await fetch(`${service.url}/metrics`)).text()
    const count = /db_query_duration_seconds_count\{operation="get_own_plant",pool="read"\} ([0-9]+)/.exec(metrics)
    assert.ok(Number(count?.[1]) >= 100, 'the reads went to the read pool')
    await service.stop()
  })

  test('when the read server cannot be reached, reads use the primary', async () => {
    const service = await start({ DATABASE_URL: cluster.url('primary'), DATABASE_READ_URL: 'postgres://postgres@127.0.0.1:1/postgres' })
    assert.equal((await call(`${service.url}/plants`, writer, 'POST', '{"id":2001,"name":"fallback"}')).status, 200)
    for (let i = 0; i < 5; i++) assert.equal((await call(`${service.url}/plants/2001`, writer)).status, 200)
    assert.equal((await call(`${service.url}/plants?limit=5`, writer)).status, 200)
    await service.stop()
    assert.match(service.stdout(), /the read database is unavailable; reading from the primary/)
  })

  test('through PgBouncer in transaction mode with PG_PREPARED_STATEMENTS=false', async () => {
    const service = await start({ DATABASE_URL: cluster.url('pgbouncer'), PG_PREPARED_STATEMENTS: 'false' })
    const receiver = await Receiver.start()
    try {
      assert.equal((await call(`${service.url}/webhooks`, admin, 'POST', { url: receiver.url() })).status, 201)
      for (let id = 3000; id < 3040; id++) {
        const created = await call(`${service.url}/plants`, writer, 'POST', `{"id":${id},"name":"pooled ${id}"}`, {
          'idempotency-key': `pooled-${id}`,
        })
        assert.equal(created.status, 200, created.text)
      }
      const replay = await call(`${service.url}/plants`, writer, 'POST', '{"id":3000,"name":"pooled 3000"}', {
        'idempotency-key': 'pooled-3000',
      })
      assert.equal(replay.headers.get('idempotent-replayed'), 'true')
      assert.equal((await call(`${service.url}/plants`, writer, 'POST', '{"id":3000,"name":"again"}')).status, 400)
      assert.equal((await call(`${service.url}/plants/3001`, writer)).text, '{"name":"pooled 3001"}')
      assert.equal((await call(`${service.url}/plants?after=2999&limit=40`, writer)).text.split('pooled').length - 1, 40)
      assert.equal((await call(`${service.url}/plants/3001`, writer, 'DELETE')).status, 204)
      assert.equal((await fetch(`${service.url}/readyz`)).status, 200)
      await receiver.until((received) => new Set(received.map((event) => event.body)).size >= 40, 30_000)
    } finally {
      await receiver.close()
      await service.stop()
    }
    assert.doesNotMatch(service.stdout(), /"level":50/, 'no error was logged')
  })

  test('pgBackRest: a full backup under load, a mass delete, and the documented restore to the time before it gives a server the service reads and writes', async () => {
    const service = services[0] as Service
    const owner = await makeToken(cluster.url('primary'), 'pitr')
    const acknowledged: number[] = []
    let writing = true
    let next = 40_000_000
    const writeLoad = (async () => {
      while (writing) {
        const id = next++
        if ((await call(`${service.url}/plants`, owner, 'POST', `{"id":${id},"name":"pitr plant ${id}"}`)).status === 200)
          acknowledged.push(id)
      }
    })()
    const backupStartedAt = Date.now()
    const backup = await cluster.pgbackrest(['--type=full', 'backup'])
    const backupMs = Date.now() - backupStartedAt
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    writing = false
    await writeLoad
    assert.equal(backup.code, 0, backup.stderr)
    assert.ok(acknowledged.length > 50, `plants were written during and after the backup (${acknowledged.length})`)
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    const beforeTheMistake = new Date()
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    for (const id of acknowledged) assert.equal((await call(`${service.url}/plants/${id}`, owner, 'DELETE')).status, 204)
    assert.equal((await call(`${service.url}/plants`, owner)).text, '[]')
    // check switches to a new WAL segment and waits until it is archived: the delete is in the repository.
    const check = await cluster.pgbackrest(['check'])
    assert.equal(check.code, 0, check.stderr)

    const restoreStartedAt = Date.now()
    const restoredUrl = await cluster.restoreAsDocumented(beforeTheMistake)
    const restoreMs = Date.now() - restoreStartedAt
    // A commit that waits for a synchronous standby waits past any statement timeout shorter than this.
    await assert.rejects(
      cluster.rows(restoredUrl.replace(SUPERUSER_PASSWORD, 'wrong'), 'SELECT 1'),
      /password authentication failed/,
      'the restored server refuses a wrong password',
    )
    const restored = await start({ DATABASE_URL: restoredUrl, PG_STATEMENT_TIMEOUT_MS: '60000' })
    try {
      const listed = await call(`${restored.url}/plants?limit=100000`, owner)
      assert.equal(listed.status, 200, listed.text)
      const held = new Set([...listed.text.matchAll(/"pitr plant ([0-9]+)"/g)].map((match) => Number(match[1])))
      assert.deepEqual(
        acknowledged.filter((id) => !held.has(id)),
        [],
        'every plant acknowledged before the target is back',
      )
      const writeStartedAt = Date.now()
      const written = await fetch(`${restored.url}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
        body: '{"id":49000000,"name":"written after the restore"}',
        signal: AbortSignal.timeout(30_000),
      }).catch((error: Error) => ({ status: error.name, text: async () => '' }))
      assert.equal(written.status, 200, `a write on the restored server answers (${await written.text()})`)
      const writeMs = Date.now() - writeStartedAt
      assert.equal((await call(`${restored.url}/plants/49000000`, owner)).text, '{"name":"written after the restore"}')
      const [archiver] = await cluster.rows<{ archived: string; failed: string }>(
        restoredUrl,
        'SELECT archived_count AS archived, failed_count AS failed FROM pg_stat_archiver',
      )
      assert.deepEqual(archiver, { archived: '0', failed: '0' }, "the restored server archives nothing into the cluster's repository")
      console.log(
        `pgBackRest: full backup in ${(backupMs / 1000).toFixed(1)} s under load, ${acknowledged.length} plants written, ` +
          `restore to the time before the mass delete and promotion in ${(restoreMs / 1000).toFixed(1)} s, ` +
          `a write on the restored server in ${writeMs} ms`,
      )
    } finally {
      await restored.stop()
    }
    assert.deepEqual(await cluster.cleanUpRestore(), { running: false, folder: false }, "the docs' cleanup stops the server and removes it")
  })

  /**
   * Two instances, creates retried with their keys across `disrupt`, a subscription: no 500,
   * one answer per key, every acknowledged plant kept and announced; returns the outage.
   */
  async function underLoad(name: string, firstId: bigint, disrupt: () => Promise<void>) {
    const instances = [await start({ DATABASE_URL: cluster.url('primary') }), await start({ DATABASE_URL: cluster.url('primary') })]
    const receiver = await Receiver.start()
    const subscription = JSON.parse((await call(`${instances[0]?.url}/webhooks`, admin, 'POST', { url: receiver.url() })).text) as {
      id: string
    }
    const oldLeader = await cluster.leader()
    let disruptedAt = 0
    let leaderSeenAt = 0
    let loadUntil = performance.now() + 60_000
    const load = keyedLoad({
      instances: instances.map((instance) => instance.url),
      token: writer,
      workers: 8,
      firstId,
      until: () => loadUntil,
      giveUpAt: () => loadUntil + 30_000,
    })
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    disruptedAt = performance.now()
    await disrupt()
    // The new leader as HAProxy's check sees it (Patroni's /primary answers 200 there).
    while (performance.now() - disruptedAt < 60_000) {
      const leader = await cluster.leader()
      if (leader !== null && leader !== oldLeader) {
        leaderSeenAt = performance.now()
        break
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    assert.ok(leaderSeenAt > 0, 'a new leader within 60 s')
    loadUntil = Math.min(loadUntil, leaderSeenAt + WRITES_AGAIN_WITHIN_MS + 3_000)
    const report = await load
    const outage = longestOutageMs(report.timeline)
    const recovered = instances.map((_, index) => recoveredAt(report.timeline, index, disruptedAt))
    console.log(
      `${name}: ${report.acknowledged.length} creates acknowledged, answers ${JSON.stringify(Object.fromEntries(report.statuses))}, ` +
        `new leader seen ${((leaderSeenAt - disruptedAt) / 1000).toFixed(1)} s after the disruption, longest write outage ${(outage / 1000).toFixed(1)} s, ` +
        `instances writing again ${recovered.map((at) => (at === null ? 'never' : `${((at - leaderSeenAt) / 1000).toFixed(1)} s`)).join(' and ')} after it`,
    )
    assert.equal(report.statuses.get(500) ?? 0, 0, 'no answer is a 500')
    assert.deepEqual(report.wrongAnswers, [], 'every key was answered 200 (first or replayed), never 400 or 422')
    assert.deepEqual(report.unfinished, [], 'every started create was acknowledged in the end')
    for (const at of recovered) {
      assert.ok(
        at !== null && at - leaderSeenAt <= WRITES_AGAIN_WITHIN_MS,
        `each instance writes again within ${WRITES_AGAIN_WITHIN_MS} ms of the new leader`,
      )
    }
    const kept = await ownIds(instances[0]?.url as string, writer)
    const lost = report.acknowledged.filter((id) => !kept.has(String(id)))
    assert.deepEqual(lost, [], 'no acknowledged create is lost')
    const wanted = new Set(report.acknowledged.map(String))
    await receiver.until((received) => {
      const seen = new Set(received.map((event) => /"id":(-?[0-9]+)/.exec(event.body)?.[1]))
      return [...wanted].every((id) => seen.has(id))
    }, 90_000)
    for (const instance of instances) {
      assert.equal((await fetch(`${instance.url}/readyz`)).status, 200)
      assert.doesNotMatch(instance.stderr(), /Unhandled|uncaught/i)
      assert.equal(instance.process.exitCode, null, 'the instance is still running')
    }
    await call(`${instances[0]?.url}/webhooks/${subscription.id}`, admin, 'DELETE')
    await receiver.close()
    await Promise.all(instances.map((instance) => instance.stop()))
  }

  test('a planned switchover under load loses nothing and fails no request with a 500', async () => {
    await underLoad('switchover', 10_000_000n, async () => {
      await cluster.switchover()
    })
    await cluster.waitForRoles()
  })

  test("an unplanned failover (the leader's Patroni and PostgreSQL SIGKILLed) under load loses nothing", async () => {
    await underLoad('failover', 20_000_000n, async () => {
      await cluster.killLeader()
    })
  })

  test('the leader killed in the failover, started again, rejoins as a streaming replica', async () => {
    const killed = cluster.nodes.find((node) => node.patroni === null)
    assert.ok(killed, 'the failover left a node stopped')
    const startedAt = Date.now()
    cluster.startPatroni(killed)
    const streaming = await waitFor(
      `${killed.name} to stream from the new leader`,
      async () => {
        const [row] = await cluster.rows<{ status: string | null }>(
          cluster.url(killed),
          'SELECT (SELECT status FROM pg_stat_wal_receiver) AS status WHERE pg_is_in_recovery()',
        )
        return row?.status === 'streaming'
      },
      120_000,
      500,
    ).catch(() => false)
    assert.ok(streaming, `${killed.name} streams again (log: ${join(cluster.root, `patroni-${killed.name}.log`)})`)
    const leader = await cluster.leader()
    assert.ok(leader, 'a leader')
    const [sent] = await cluster.rows<{ lsn: string }>(cluster.url(leader), 'SELECT pg_current_wal_lsn()::text AS lsn')
    await waitFor(
      `${killed.name} to replay the leader's latest WAL`,
      async () => {
        const [row] = await cluster.rows<{ ok: boolean }>(cluster.url(killed), 'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [
          sent?.lsn,
        ])
        return row?.ok === true
      },
      60_000,
      250,
    )
    await cluster.waitForRoles()
    console.log(
      `the killed leader ${killed.name} streamed again ${((Date.now() - startedAt) / 1000).toFixed(1)} s after its Patroni started`,
    )
  })

  test("after the failovers, the docs' backup, check and info run as written from whichever node leads", async () => {
    await cluster.waitForRoles()
    // pgbackrest.conf lists node1 first: a leader elsewhere is what a pinned configuration misses.
    if ((await cluster.leader()) === cluster.nodes[0]) {
      await cluster.switchover()
      await cluster.waitForRoles()
    }
    const leader = await cluster.leader()
    assert.notEqual(leader?.name, 'node1')
    const startedAt = Math.floor(Date.now() / 1000)
    await cluster.runDocumented('backup')
    const info = await cluster.pgbackrest(['info', '--output=json'])
    const [stanza] = JSON.parse(info.stdout) as { backup: { type: string; timestamp: { start: number } }[] }[]
    const newest = stanza?.backup.at(-1)
    assert.equal(newest?.type, 'full', 'the backup taken on the new leader is listed')
    assert.ok((newest?.timestamp.start ?? 0) >= startedAt, 'and it is the one just taken')
  })

  test("the docs' whole-cluster restore to a time before the newest backup: Patroni bootstraps node1 from the set before it, and the others follow", async () => {
    const service = services[0] as Service
    const owner = await makeToken(cluster.url('primary'), 'cluster-pitr')
    assert.equal((await call(`${service.url}/plants`, owner, 'POST', '{"id":51,"name":"before the target"}')).status, 200)
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    const target = new Date()
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    assert.equal((await call(`${service.url}/plants`, owner, 'POST', '{"id":52,"name":"after the target"}')).status, 200)
    // check switches to a new WAL segment and waits until it is archived.
    const check = await cluster.pgbackrest(['check'])
    assert.equal(check.code, 0, check.stderr)

    // The usual case: the mistake is noticed after the next nightly backup, taken after the target.
    const newer = await cluster.pgbackrest(['--type=full', 'backup'])
    assert.equal(newer.code, 0, newer.stderr)
    const info = await cluster.pgbackrest(['info', '--output=json'])
    const [stanza] = JSON.parse(info.stdout) as { backup: { label: string; timestamp: { stop: number } }[] }[]
    const backups = stanza?.backup ?? []
    assert.ok((backups.at(-1)?.timestamp.stop ?? 0) * 1000 > target.getTime(), 'the newest backup stopped after the target')
    const set = backups.filter((backup) => backup.timestamp.stop * 1000 < target.getTime()).at(-1)?.label
    assert.ok(set, 'a backup stopped before the target')

    const startedAt = Date.now()
    await cluster.restoreClusterAsDocumented(target, set)
    const restoreMs = Date.now() - startedAt
    const before = await waitFor(
      'the service to read through HAProxy again',
      async () => {
        const answer = await call(`${service.url}/plants/51`, owner)
        return answer.status === 200 ? answer : null
      },
      60_000,
      500,
    )
    assert.equal(before.text, '{"name":"before the target"}')
    assert.equal((await call(`${service.url}/plants/52`, owner)).status, 404, 'the plant written after the target is not there')
    assert.equal((await call(`${service.url}/plants`, owner, 'POST', '{"id":53,"name":"after the restore"}')).status, 200)
    await assert.rejects(
      cluster.rows(cluster.url('primary').replace(SUPERUSER_PASSWORD, 'wrong'), 'SELECT 1'),
      /password authentication failed/,
      'the restored leader refuses a wrong password',
    )
    for (const node of cluster.nodes.slice(1)) cluster.startPatroni(node)
    await cluster.waitForRoles()
    const synced = await cluster.syncStandby()
    assert.ok(synced && synced !== cluster.nodes[0], 'another node follows node1 as its sync standby')
    console.log(
      `the whole cluster restored from ${set} to a time before the newest backup by Patroni's bootstrap: node1 led ${(restoreMs / 1000).toFixed(1)} s after Patroni was stopped everywhere`,
    )
  })
})
