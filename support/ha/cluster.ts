import type { ChildProcess } from 'node:child_process'
import { execFile } from 'node:child_process'
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { freePort } from '../ports.js'
import { REPO_ROOT } from '../service.js'
import { CLUSTER_USER, isAlive, killPostmaster, postmasterOf, signal, startAs, waitFor } from './processes.js'

const run = promisify(execFile)
const DEPLOY = join(REPO_ROOT, 'deploy', 'ha')
/** The example's data root, replaced by a folder of this run's. */
const EXAMPLE_ROOT = '/var/lib/plantstore-ha'
/** The example's socket folder (every node's, outside its data folder), replaced by one of this run's. */
const EXAMPLE_SOCKETS = '/var/run/postgresql'
export const SUPERUSER_PASSWORD = 'plantstore-example-superuser'
/** The docs mark their restore steps with this line; the shell block after it is run as it is. */
const RESTORE_MARKER = '<!-- test:ha runs the next block as it is -->'
const EXAMPLE_TARGET = '2026-11-25 14:05:00+00'
const EXAMPLE_RESTORED_PORT = '5450'

/** The shell block after RESTORE_MARKER in docs/, which must be in exactly one place. */
function documentedRestore(): string {
  const docs = join(REPO_ROOT, 'docs')
  const blocks = readdirSync(docs)
    .filter((name) => name.endsWith('.md'))
    .flatMap((name) => readFileSync(join(docs, name), 'utf8').split(RESTORE_MARKER).slice(1))
  if (blocks.length !== 1) throw new Error(`docs/ should mark one restore block, not ${blocks.length}`)
  const block = /^\s*```sh\n([\s\S]*?)\n```/.exec(blocks[0] as string)
  if (block === null) throw new Error('no sh block right after the restore marker in docs/')
  return block[1] as string
}

/** `text` with each example value replaced, every one of which must be there. */
function replaceEach(text: string, pairs: [string, string][]): string {
  return pairs.reduce((result, [example, here]) => {
    if (!result.includes(example)) throw new Error(`the documented restore no longer names ${example}`)
    return result.replaceAll(example, here)
  }, text)
}

export interface Node {
  name: string
  pgPort: number
  restPort: number
  dataDir: string
  config: string
  patroni: ChildProcess | null
}

/**
 * deploy/ha/ started for real on free loopback ports: etcd, three Patroni nodes with PostgreSQL,
 * HAProxy (leader and sync ports) and PgBouncer in transaction mode. Every process it starts is
 * ended by its id in `stop()`, and at this process's exit whatever happens.
 */
export class HaCluster {
  readonly nodes: Node[] = []
  private readonly others: ChildProcess[] = []
  /** Servers restored from pgBackRest's repository, by data folder. */
  private readonly restored: string[] = []
  readonly ports: { etcd: number; etcdPeer: number; primary: number; sync: number; pgbouncer: number }

  private constructor(
    readonly root: string,
    ports: HaCluster['ports'],
  ) {
    this.ports = ports
    process.on('exit', () => this.killAll())
  }

  /** `postgres://…` to HAProxy's leader port, its sync port, PgBouncer, or one node. */
  url(where: 'primary' | 'sync' | 'pgbouncer' | Node, database = 'postgres'): string {
    const port = typeof where === 'string' ? this.ports[where] : where.pgPort
    return `postgres://postgres:${SUPERUSER_PASSWORD}@127.0.0.1:${port}/${database}`
  }

  static async start(): Promise<HaCluster> {
    const root = mkdtempSync(join(tmpdir(), 'plantstore-ha-'))
    chmodSync(root, 0o755)
    const ports = {
      etcd: await freePort(),
      etcdPeer: await freePort(),
      primary: await freePort(),
      sync: await freePort(),
      pgbouncer: await freePort(),
    }
    const cluster = new HaCluster(root, ports)
    try {
      for (const name of ['node1', 'node2', 'node3']) {
        cluster.nodes.push({
          name,
          pgPort: await freePort(),
          restPort: await freePort(),
          dataDir: join(root, name),
          config: join(root, `patroni-${name}.yml`),
          patroni: null,
        })
      }
      if (process.getuid?.() === 0) {
        const { stdout } = await run('id', ['-u', CLUSTER_USER])
        const { stdout: group } = await run('id', ['-g', CLUSTER_USER])
        chownSync(root, Number(stdout), Number(group))
      }
      cluster.writeConfigs()
      await cluster.startEtcd()
      for (const node of cluster.nodes) cluster.startPatroni(node)
      await cluster.waitForRoles()
      // The repository's stanza, once the leader runs: from then on every node's WAL is archived.
      const created = await cluster.pgbackrest(['stanza-create'])
      if (created.code !== 0) throw new Error(`pgbackrest stanza-create failed: ${created.stderr}`)
      cluster.startProxies()
      await waitFor(
        'HAProxy to route to the leader',
        () => cluster.sql(cluster.url('primary'), 'SELECT NOT pg_is_in_recovery() AS ok'),
        30_000,
      )
      await waitFor(
        'HAProxy to route to the sync standby',
        () => cluster.sql(cluster.url('sync'), 'SELECT pg_is_in_recovery() AS ok'),
        30_000,
      )
      return cluster
    } catch (error) {
      await cluster.stop()
      throw new Error(`the cluster did not start (${(error as Error).message}); logs in ${root}`, { cause: error })
    }
  }

  /** The example's files with this run's ports and folders. */
  private writeConfigs(): void {
    const routes = (text: string) =>
      this.nodes.reduce(
        (result, node, i) =>
          result
            .replaceAll(`127.0.0.1:544${i + 1}`, `127.0.0.1:${node.pgPort}`)
            .replaceAll(`pg${i + 1}-port=544${i + 1}`, `pg${i + 1}-port=${node.pgPort}`)
            .replaceAll(`port 801${i + 1}`, `port ${node.restPort}`)
            .replaceAll(`127.0.0.1:801${i + 1}`, `127.0.0.1:${node.restPort}`),
        text
          .replaceAll(EXAMPLE_ROOT, this.root)
          .replaceAll(EXAMPLE_SOCKETS, this.sockets)
          .replaceAll('127.0.0.1:2379', `127.0.0.1:${this.ports.etcd}`),
      )
    for (const node of this.nodes) writeFileSync(node.config, routes(readFileSync(join(DEPLOY, `patroni-${node.name}.yml`), 'utf8')))
    writeFileSync(
      join(this.root, 'haproxy.cfg'),
      routes(readFileSync(join(DEPLOY, 'haproxy.cfg'), 'utf8'))
        .replace('bind 127.0.0.1:5000', `bind 127.0.0.1:${this.ports.primary}`)
        .replace('bind 127.0.0.1:5001', `bind 127.0.0.1:${this.ports.sync}`),
    )
    writeFileSync(
      join(this.root, 'pgbouncer.ini'),
      routes(readFileSync(join(DEPLOY, 'pgbouncer.ini'), 'utf8'))
        .replace('port=5000', `port=${this.ports.primary}`)
        .replace('listen_port = 6432', `listen_port = ${this.ports.pgbouncer}`),
    )
    writeFileSync(join(this.root, 'pgbouncer-users.txt'), `"postgres" "${SUPERUSER_PASSWORD}"\n`)
    writeFileSync(join(this.root, 'pgbackrest.conf'), routes(readFileSync(join(DEPLOY, 'pgbackrest.conf'), 'utf8')))
    for (const folder of ['pgbackrest', 'pgbackrest-log', 'pgbackrest-lock', 'run']) {
      mkdirSync(join(this.root, folder), { mode: 0o750 })
      if (process.getuid?.() === 0) this.own(join(this.root, folder))
    }
    for (const file of [
      'haproxy.cfg',
      'pgbouncer.ini',
      'pgbouncer-users.txt',
      'pgbackrest.conf',
      ...this.nodes.map((node) => node.config),
    ]) {
      const path = file.startsWith('/') ? file : join(this.root, file)
      if (process.getuid?.() === 0) this.own(path)
      chmodSync(path, 0o600)
    }
  }

  /** Every node's socket folder, as /var/run/postgresql on a real host. */
  get sockets(): string {
    return join(this.root, 'run')
  }

  private own(path: string): void {
    const { uid, gid } = this.clusterIds
    chownSync(path, uid, gid)
  }

  private get clusterIds(): { uid: number; gid: number } {
    const line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith(`${CLUSTER_USER}:`))
    const [, , uid, gid] = (line ?? '').split(':')
    return { uid: Number(uid), gid: Number(gid) }
  }

  private log(name: string): string {
    const path = join(this.root, `${name}.log`)
    writeFileSync(path, '')
    if (process.getuid?.() === 0) this.own(path)
    return path
  }

  private async startEtcd(): Promise<void> {
    const data = join(this.root, 'etcd')
    mkdirSync(data, { mode: 0o700 })
    if (process.getuid?.() === 0) this.own(data)
    const client = `http://127.0.0.1:${this.ports.etcd}`
    const peer = `http://127.0.0.1:${this.ports.etcdPeer}`
    this.others.push(
      startAs(
        'etcd',
        [
          '--name',
          'ha',
          '--data-dir',
          data,
          '--listen-client-urls',
          client,
          '--advertise-client-urls',
          client,
          '--listen-peer-urls',
          peer,
          '--initial-advertise-peer-urls',
          peer,
          '--initial-cluster',
          `ha=${peer}`,
        ],
        this.log('etcd'),
        this.root,
      ),
    )
    await waitFor('etcd', async () => (await fetch(`${client}/health`)).ok, 20_000)
  }

  startPatroni(node: Node): void {
    node.patroni = startAs('patroni', [node.config], this.log(`patroni-${node.name}`), this.root)
  }

  /** The node that answers 200 on Patroni's `/primary`, or null. */
  async leader(): Promise<Node | null> {
    for (const node of this.nodes) if (await this.answers(node, '/primary')) return node
    return null
  }

  async syncStandby(): Promise<Node | null> {
    for (const node of this.nodes) if (await this.answers(node, '/sync')) return node
    return null
  }

  private async answers(node: Node, path: string): Promise<boolean> {
    try {
      const response = await fetch(`http://127.0.0.1:${node.restPort}${path}`, { signal: AbortSignal.timeout(1_000) })
      await response.arrayBuffer()
      return response.status === 200
    } catch {
      return false
    }
  }

  /** A leader and a synchronous standby, with the third node streaming. */
  async waitForRoles(timeoutMs = 120_000): Promise<void> {
    await waitFor('a leader', () => this.leader(), timeoutMs, 500)
    await waitFor('a synchronous standby', () => this.syncStandby(), timeoutMs, 500)
    await waitFor(
      'every node running',
      async () => {
        const states = await Promise.all(this.nodes.filter((node) => node.patroni !== null).map((node) => this.answers(node, '/health')))
        return states.every(Boolean)
      },
      timeoutMs,
      500,
    )
  }

  private startProxies(): void {
    this.others.push(startAs('haproxy', ['-db', '-f', join(this.root, 'haproxy.cfg')], this.log('haproxy'), this.root))
    this.others.push(startAs('pgbouncer', [join(this.root, 'pgbouncer.ini')], this.log('pgbouncer-out'), this.root))
  }

  /** The first row's `ok` of `sql` on `url`, or null when it cannot be read. */
  async sql(url: string, sql: string): Promise<boolean | null> {
    const pg = (await import('pg')).default
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 })
    client.on('error', () => {})
    try {
      await client.connect()
      const result = await client.query<{ ok: boolean }>(sql)
      return result.rows[0]?.ok === true ? true : null
    } catch {
      return null
    } finally {
      await client.end().catch(() => {})
    }
  }

  /** The rows of `sql` on `url`; throws what the server answers. */
  async rows<Row extends Record<string, unknown>>(url: string, sql: string, values: unknown[] = []): Promise<Row[]> {
    const pg = (await import('pg')).default
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 })
    client.on('error', () => {})
    try {
      await client.connect()
      return (await client.query<Row>(sql, values)).rows
    } finally {
      await client.end().catch(() => {})
    }
  }

  /**
   * `pgbackrest --config=pgbackrest.conf --stanza=plantstore …` as the cluster's user, as the docs
   * give it: pgBackRest finds the leader among the nodes the file lists.
   */
  async pgbackrest(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return this.runAsClusterUser('pgbackrest', [`--config=${join(this.root, 'pgbackrest.conf')}`, '--stanza=plantstore', ...args])
  }

  private async runAsClusterUser(command: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const asUser = process.getuid?.() === 0
    const [file, argv] = asUser
      ? ['setpriv', ['--reuid', CLUSTER_USER, '--regid', CLUSTER_USER, '--init-groups', '--', command, ...args]]
      : [command, args]
    try {
      const { stdout, stderr } = await run(file, argv, { cwd: this.root, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 })
      return { code: 0, stdout, stderr }
    } catch (error) {
      const failed = error as { code?: unknown; stdout?: string; stderr?: string }
      return { code: typeof failed.code === 'number' ? failed.code : null, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' }
    }
  }

  /**
   * The docs' point-in-time restore steps (the shell block after RESTORE_MARKER), run as they are
   * with only the example's folder, configuration, port and time replaced by this run's: a new
   * server as of `target`, promoted once it gets there. Answers its URL; `stop()` ends it.
   */
  async restoreAsDocumented(target: Date): Promise<string> {
    const port = await freePort()
    const script = replaceEach(documentedRestore(), [
      ['deploy/ha/pgbackrest.conf', join(this.root, 'pgbackrest.conf')],
      // pgBackRest's form: YYYY-MM-DD HH:MM:SS.mmm+00.
      [EXAMPLE_TARGET, target.toISOString().replace('T', ' ').replace('Z', '+00')],
      [EXAMPLE_RESTORED_PORT, String(port)],
      [EXAMPLE_ROOT, this.root],
    ])
    this.restored.push(join(this.root, 'restored'))
    const ran = await this.runAsClusterUser('sh', ['-e', '-c', script])
    if (ran.code !== 0) throw new Error(`the documented restore failed (${ran.code}): ${ran.stderr}${ran.stdout}`)
    const url = `postgres://postgres:${SUPERUSER_PASSWORD}@127.0.0.1:${port}/postgres`
    await waitFor(
      'the restored server to reach its target and be promoted',
      () => this.sql(url, 'SELECT NOT pg_is_in_recovery() AS ok'),
      120_000,
      250,
    )
    return url
  }

  /** `patronictl switchover` from the leader to the sync standby, as an operator runs it. */
  async switchover(): Promise<{ from: Node; to: Node }> {
    const from = await this.leader()
    const to = await this.syncStandby()
    if (from === null || to === null) throw new Error('no leader or sync standby to switch over')
    await run('patronictl', ['-c', from.config, 'switchover', '--leader', from.name, '--candidate', to.name, '--force'], {
      timeout: 60_000,
    })
    return { from, to }
  }

  /** The leader's Patroni and PostgreSQL SIGKILLed, as when its machine dies. */
  async killLeader(): Promise<Node> {
    const leader = await this.leader()
    if (leader === null) throw new Error('no leader to kill')
    if (leader.patroni?.pid !== undefined) signal(leader.patroni.pid, 'SIGKILL')
    killPostmaster(leader.dataDir)
    leader.patroni = null
    return leader
  }

  private killAll(): void {
    for (const node of this.nodes) {
      if (node.patroni?.pid !== undefined) signal(node.patroni.pid, 'SIGKILL')
      killPostmaster(node.dataDir)
    }
    for (const dataDir of this.restored) killPostmaster(dataDir)
    for (const child of this.others) if (child.pid !== undefined) signal(child.pid, 'SIGKILL')
  }

  /** Ends every process it started, by id, and removes its folder unless asked to keep it. */
  async stop({ keep = false }: { keep?: boolean } = {}): Promise<void> {
    for (const node of this.nodes) if (node.patroni?.pid !== undefined) signal(node.patroni.pid, 'SIGTERM')
    for (const child of this.others) if (child.pid !== undefined) signal(child.pid, 'SIGTERM')
    for (const dataDir of this.restored) {
      const postmaster = postmasterOf(dataDir)
      if (postmaster !== null) signal(postmaster, 'SIGTERM')
    }
    const ids = () =>
      [
        ...this.nodes.flatMap((node) => [node.patroni?.pid, postmasterOf(node.dataDir)]),
        ...this.restored.map(postmasterOf),
        ...this.others.map((child) => child.pid),
      ].filter((pid): pid is number => pid !== undefined && pid !== null && isAlive(pid))
    await waitFor('the cluster to stop', async () => ids().length === 0, 15_000).catch(() => {})
    this.killAll()
    if (!keep) rmSync(this.root, { recursive: true, force: true })
  }
}
