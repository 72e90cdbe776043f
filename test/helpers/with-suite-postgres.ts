/**
 * Runs a command (the test runner) with TEST_POSTGRES_URL pointing at a PostgreSQL cluster of its
 * own: made with initdb in a temporary folder, on a free loopback port, and removed afterwards.
 *
 *   node dist/test/helpers/with-suite-postgres.js node --test …
 *
 * The suite creates and drops a database per test file, at once from several files; on its own
 * cluster that does not queue behind (or fill the connections of) a server others use. The
 * cluster is run non-durably (fsync and full_page_writes off): the suite never crashes PostgreSQL
 * itself, only the service, so what reached PostgreSQL survives every test's fault. The service
 * still gets synchronous_commit=on (it insists on it), which costs nothing without fsync. The
 * tests that prove PostgreSQL's own durability, a failover, run in `npm run test:ha` on a cluster
 * with the real settings.
 *
 * With TEST_POSTGRES_URL already set, or without PostgreSQL's server programs on this machine,
 * the command runs as it is (the suite then uses TEST_POSTGRES_URL or the server on 5432).
 */
import { type SpawnOptions, execFileSync, spawn } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../../support/ports.js'

const SETTINGS = {
  listen_addresses: '127.0.0.1',
  fsync: 'off',
  full_page_writes: 'off',
  // Several test files at once, each with pools of its own and services in child processes.
  max_connections: '400',
}

/** The folder of initdb and pg_ctl: on PATH, or the newest of Debian's /usr/lib/postgresql/N/bin. */
function serverPrograms(): string | null {
  for (const folder of (process.env.PATH ?? '').split(':')) {
    if (folder && existsSync(join(folder, 'initdb')) && existsSync(join(folder, 'pg_ctl'))) return folder
  }
  const debian = '/usr/lib/postgresql'
  if (!existsSync(debian)) return null
  const versions = readdirSync(debian)
    .filter((name) => /^[0-9]+$/.test(name) && existsSync(join(debian, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))
  return versions[0] === undefined ? null : join(debian, versions[0], 'bin')
}

/** PostgreSQL refuses to run as root: then its programs run as the postgres user. */
function serverUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim())
  return { uid: id('-u'), gid: id('-g') }
}

function run(command: string, args: string[], options: SpawnOptions = {}): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', ...options })
    child.once('error', reject)
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : null)))
  })
}

async function startCluster(bin: string): Promise<{ url: string; stop(): Promise<void> }> {
  const user = serverUser()
  const folder = mkdtempSync(join(tmpdir(), 'plantstore-suite-postgres-'))
  if (user) chownSync(folder, user.uid, user.gid)
  const data = join(folder, 'data')
  const log = join(folder, 'server.log')
  // Run from the cluster's folder: the postgres user may not enter the current one (a fresh 0700 clone).
  const as = { ...(user ?? {}), cwd: folder, stdio: ['ignore', 'ignore', 'inherit'] as SpawnOptions['stdio'] }
  const remove = () => rmSync(folder, { recursive: true, force: true })
  try {
    const initdb = ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync']
    if ((await run(join(bin, 'initdb'), initdb, as)) !== 0) throw new Error('initdb failed')
    // A port another process takes between freePort and the server's bind is retried, twice.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort()
      const options = [`-p ${port}`, `-k ${folder}`, ...Object.entries(SETTINGS).map(([name, value]) => `-c ${name}=${value}`)]
      const started = await run(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-w', '-t', '60', '-o', options.join(' '), 'start'], as)
      if (started === 0) {
        return {
          url: `postgres://postgres@127.0.0.1:${port}/postgres`,
          async stop() {
            await run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], as)
            remove()
          },
        }
      }
      if (attempt === 3) throw new Error(`the suite's PostgreSQL did not start:\n${readFileSync(log, 'utf8').slice(-2000)}`)
    }
  } catch (error) {
    remove()
    throw error
  }
}

const [command, ...args] = process.argv.slice(2)
if (command === undefined) {
  console.error('usage: with-suite-postgres.js COMMAND [ARGUMENT…]')
  process.exit(2)
}
const bin = process.env.TEST_POSTGRES_URL ? null : serverPrograms()
const cluster = bin ? await startCluster(bin) : null
const child = spawn(command, args, {
  stdio: 'inherit',
  env: cluster ? { ...process.env, TEST_POSTGRES_URL: cluster.url } : process.env,
})
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal))
const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
  child.once('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
)
await cluster?.stop()
process.exit(code ?? (signal ? 1 : 0))
