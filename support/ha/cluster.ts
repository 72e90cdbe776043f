import type { ChildProcess } from 'node:child_process'
import { execFile, spawnSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
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
/** The docs mark each block test:ha runs with this line, then the block's name. */
const BLOCK_MARKER = '<!-- test:ha runs the next block: '
const EXAMPLE_TARGET = '2026-11-25 14:05:00+00'
/** The docs' example backup set, the newest one that stopped before the target. */
const EXAMPLE_SET = '20261125-020000F'
const EXAMPLE_RESTORED_PORT = '5450'
/** node1's port, which the documented psql line names. */
const EXAMPLE_NODE1_PORT = '-p 5441'

/** Every markdown file of docs/, by name. */
function docs(): { name: string; text: string }[] {
  const folder = join(REPO_ROOT, 'docs')
  return readdirSync(folder)
    .filter((name) => name.endsWith('.md'))
    .map((name) => ({ name, text: readFileSync(join(folder, name), 'utf8') }))
}

/**
 * The docs must name pgBackRest's file by absolute path: pgBackRest 2.45 reads a relative
 * `--config` from `/`, so such a command fails for an operator wherever they run it.
 */
export function refuseRelativeConfig(): void {
  for (const { name, text } of docs()) {
    const relative = /--config[= ](?!\/)\S+/.exec(text)
    if (relative !== null) throw new Error(`docs/${name} names a relative pgBackRest file (${relative[0]}): use its absolute path`)
  }
}

/** The shell or YAML block after `<!-- test:ha runs the next block: NAME -->` in docs/, which must be in exactly one place. */
export function documentedBlock(name: string): string {
  const marker = `${BLOCK_MARKER}${name} -->`
  const blocks = docs().flatMap(({ text }) => text.split(marker).slice(1))
  if (blocks.length !== 1) throw new Error(`docs/ should mark one block "${name}", not ${blocks.length}`)
  const block = /^\s*```(?:sh|yaml)\n([\s\S]*?)\n```/.exec(blocks[0] as string)
  if (block === null) throw new Error(`no sh or yaml block right after the marker "${name}" in docs/`)
  return block[1] as string
}

/** `text` with each example value replaced, every one of which must be there. */
function replaceEach(text: string, pairs: [string, string][]): string {
  return pairs.reduce((result, [example, here]) => {
    if (!result.includes(example)) throw new Error(`the documented block no longer names ${example}`)
    return result.replaceAll(example, here)
  }, text)
}

interface Ran {
  code: number | null
  stdout: string
  stderr: string
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
      refuseRelativeConfig()
      cluster.writeConfigs()
      // As root, from the repository's folder, as the docs give it: the folders and the files in place.
      await cluster.runDocumented('install', { asClusterUser: false, cwd: cluster.checkout })
      await cluster.startEtcd()
      for (const node of cluster.nodes) cluster.startPatroni(node)
      await cluster.waitForRoles()
      // pgBackRest's stanza and PgBouncer's users file, once a leader runs.
      await cluster.runDocumented('once the cluster leads')
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

  /** A copy of the repository's deploy/ha/ with this run's ports: the install block copies from it. */
  get checkout(): string {
    return join(this.root, 'checkout')
  }

  /** deploy/ha/'s files with this run's ports and folders, under `checkout`. */
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
    const deploy = join(this.checkout, 'deploy', 'ha')
    mkdirSync(deploy, { recursive: true })
    const copy = (name: string, edit = (text: string) => text) =>
      writeFileSync(join(deploy, name), edit(routes(readFileSync(join(DEPLOY, name), 'utf8'))))
    for (const node of this.nodes) copy(`patroni-${node.name}.yml`)
    copy('haproxy.cfg', (text) =>
      text
        .replace('bind 127.0.0.1:5000', `bind 127.0.0.1:${this.ports.primary}`)
        .replace('bind 127.0.0.1:5001', `bind 127.0.0.1:${this.ports.sync}`),
    )
    copy('pgbouncer.ini', (text) =>
      text.replace('port=5000', `port=${this.ports.primary}`).replace('listen_port = 6432', `listen_port = ${this.ports.pgbouncer}`),
    )
    copy('pgbackrest.conf')
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
    // The install block made it.
    const data = join(this.root, 'etcd')
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
  async pgbackrest(args: string[]): Promise<Ran> {
    return this.runAsClusterUser('pgbackrest', [`--config=${join(this.root, 'pgbackrest.conf')}`, '--stanza=plantstore', ...args])
  }

  private async runAsClusterUser(command: string, args: string[], cwd = this.root): Promise<Ran> {
    return process.getuid?.() === 0
      ? this.runHere('setpriv', ['--reuid', CLUSTER_USER, '--regid', CLUSTER_USER, '--init-groups', '--', command, ...args], cwd)
      : this.runHere(command, args, cwd)
  }

  private async runHere(file: string, argv: string[], cwd: string): Promise<Ran> {
    try {
      const { stdout, stderr } = await run(file, argv, { cwd, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 })
      return { code: 0, stdout, stderr }
    } catch (error) {
      const failed = error as { code?: unknown; stdout?: string; stderr?: string }
      return { code: typeof failed.code === 'number' ? failed.code : null, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' }
    }
  }

  /**
   * The docs' block `name` run as it is, with only the example's folders, node1's port and
   * `extra` replaced by this run's; as the cluster's user unless told otherwise. Throws its output
   * when it fails.
   */
  async runDocumented(
    name: string,
    { asClusterUser = true, cwd = this.root, extra = [] }: { asClusterUser?: boolean; cwd?: string; extra?: [string, string][] } = {},
  ): Promise<void> {
    const script = this.documented(name, extra)
    const ran = asClusterUser
      ? await this.runAsClusterUser('sh', ['-e', '-c', script], cwd)
      : await this.runHere('sh', ['-e', '-c', script], cwd)
    if (ran.code !== 0) throw new Error(`the documented block "${name}" failed (${ran.code}): ${ran.stderr}${ran.stdout}`)
  }

  /** The docs' block `name` for this run: the folders and node1's port wherever it names them, and `extra`, which it must name. */
  private documented(name: string, extra: [string, string][]): string {
    return [
      [EXAMPLE_ROOT, this.root],
      [EXAMPLE_SOCKETS, this.sockets],
      [EXAMPLE_NODE1_PORT, `-p ${this.nodes[0]?.pgPort}`],
    ].reduce((text, [example, here]) => text.replaceAll(example as string, here as string), replaceEach(documentedBlock(name), extra))
  }

  /**
   * The docs' restore of the whole cluster to `target`, from the backup `set`, with Patroni's bootstrap: every Patroni
   * stopped, each data folder put aside as written, the cluster's state removed from etcd,
   * node1's file given the documented bootstrap method, node1 started. Answers once it leads.
   */
  async restoreClusterAsDocumented(target: Date, set: string): Promise<void> {
    for (const node of this.nodes) await this.stopPatroni(node)
    for (const node of this.nodes) {
      // The block is written for node1; the others run it with their own name.
      const script = this.documented('cluster restore, each node', []).replaceAll('node1', node.name)
      const ran = await this.runAsClusterUser('sh', ['-e', '-c', script])
      if (ran.code !== 0) throw new Error(`putting ${node.name}'s folder aside failed: ${ran.stderr}`)
    }
    const first = this.nodes[0] as Node
    // patronictl asks for the cluster's name, then for this sentence.
    const removed = spawnSync('patronictl', ['-c', first.config, 'remove', 'plantstore'], {
      input: 'plantstore\nYes I am aware\n',
      encoding: 'utf8',
      timeout: 60_000,
    })
    if (removed.status !== 0) throw new Error(`patronictl remove failed: ${removed.stderr}${removed.stdout}`)
    const bootstrap = this.documented("cluster restore, node1's bootstrap", [
      [EXAMPLE_TARGET, target.toISOString().replace('T', ' ').replace('Z', '+00')],
      [EXAMPLE_SET, set],
    ])
    const config = readFileSync(first.config, 'utf8')
    if (!config.includes('\nbootstrap:\n')) throw new Error(`${first.config} has no bootstrap section`)
    writeFileSync(first.config, config.replace('\nbootstrap:\n', `\n${bootstrap}\n`))
    this.startPatroni(first)
    await waitFor('node1 to restore, reach the target and lead', async () => (await this.leader()) === first, 180_000, 500)
  }

  /** SIGTERM to a node's Patroni, which stops its PostgreSQL; waits until both are gone. */
  async stopPatroni(node: Node): Promise<void> {
    const pid = node.patroni?.pid
    if (pid !== undefined) signal(pid, 'SIGTERM')
    await waitFor(
      `${node.name}'s Patroni and PostgreSQL to stop`,
      async () => (pid === undefined || !isAlive(pid)) && postmasterOf(node.dataDir) === null,
      60_000,
      250,
    )
    node.patroni = null
  }

  /**
   * The docs' point-in-time restore: a new server as of `target`, promoted once it gets there.
   * Answers its URL; `cleanUpRestore()` or `stop()` ends it.
   */
  async restoreAsDocumented(target: Date): Promise<string> {
    const port = await freePort()
    this.restored.push(join(this.root, 'restored'))
    await this.runDocumented('restore', {
      extra: [
        // pgBackRest's form: YYYY-MM-DD HH:MM:SS.mmm+00.
        [EXAMPLE_TARGET, target.toISOString().replace('T', ' ').replace('Z', '+00')],
        [EXAMPLE_RESTORED_PORT, String(port)],
      ],
    })
    const url = `postgres://postgres:${SUPERUSER_PASSWORD}@127.0.0.1:${port}/postgres`
    await waitFor(
      'the restored server to reach its target and be promoted',
      () => this.sql(url, 'SELECT NOT pg_is_in_recovery() AS ok'),
      120_000,
      250,
    )
    return url
  }

  /** The docs' cleanup after a restore; answers whether the server and its folder are gone. */
  async cleanUpRestore(): Promise<{ running: boolean; folder: boolean }> {
    const folder = join(this.root, 'restored')
    const postmaster = postmasterOf(folder)
    await this.runDocumented('restore cleanup')
    // pg_ctl returns once postmaster.pid is gone, a moment before the process itself.
    const ended = await waitFor('the restored server to exit', async () => postmaster === null || !isAlive(postmaster), 5_000).catch(
      () => false,
    )
    return { running: !ended, folder: existsSync(folder) }
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
