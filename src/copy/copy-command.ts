import { parseArgs } from 'node:util'
import { parseDatabaseUrl, type DatabaseConfig } from '../config/config.js'
import { copyStore, type CopyProgress } from './copy-store.js'
import { carrySecretKey } from './secret-key.js'
import { CopyError } from './shape.js'

interface Output {
  stdout: (line: string) => void
  stderr: (line: string) => void
}

function databaseOf(option: '--from' | '--to', raw: string | undefined, usage: (message: string) => Error): DatabaseConfig {
  if (raw === undefined || raw === '') throw usage(`copy needs ${option} URL (sqlite:PATH or postgres://…)`)
  if (!/^sqlite:.+/.test(raw) && !/^postgres(ql)?:\/\/./.test(raw)) {
    throw usage(`copy ${option} must be sqlite:PATH or postgres://…, got '${raw.split(':')[0]}:…'`)
  }
  if (!raw.startsWith('sqlite:') && !URL.canParse(raw)) throw usage(`copy ${option} is not a valid postgres:// URL`)
  // The command's own URLs, whatever DATABASE_READ_URL the environment holds for serving.
  return parseDatabaseUrl(raw, { ...process.env, DATABASE_READ_URL: '' })
}

function sameDatabase(a: DatabaseConfig, b: DatabaseConfig): boolean {
  if (a.kind === 'sqlite' && b.kind === 'sqlite') return a.path === b.path
  if (a.kind === 'postgres' && b.kind === 'postgres') return a.url === b.url
  return false
}

/** Rows per table and a rate, rewritten in place, only where a person watches a terminal. */
function terminalProgress(): CopyProgress {
  if (!process.stderr.isTTY) return () => {}
  const started = performance.now()
  let shown = 0
  return (table, rows) => {
    const now = performance.now()
    if (now - shown < 250) return
    shown = now
    const rate = Math.round(rows / Math.max((now - started) / 1000, 0.001))
    process.stderr.write(`\r\u001b[2Kcopy: ${table} ${rows.toLocaleString('en')} rows (${rate.toLocaleString('en')} rows/s overall)`)
  }
}

/** `plantstore copy --from URL --to URL`: every argument checked before either database is opened. */
export async function copyCommand(args: string[], out: Output, usage: (message: string) => Error): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { from: { type: 'string', multiple: true }, to: { type: 'string', multiple: true } },
    strict: true,
    allowPositionals: false,
  })
  for (const option of ['from', 'to'] as const) {
    if ((values[option]?.length ?? 0) > 1) throw usage(`copy takes --${option} once`)
  }
  const from = databaseOf('--from', values.from?.[0], usage)
  const to = databaseOf('--to', values.to?.[0], usage)
  if (sameDatabase(from, to)) throw usage('copy --from and --to name the same database')
  try {
    const report = await copyStore(from, to, terminalProgress())
    if (process.stderr.isTTY) process.stderr.write('\r\u001b[2K')
    const tables = report.tables.map((table) => `${table.name} ${table.rows} (${table.checksum})`).join(', ')
    out.stdout(
      `copy: ${tables}; version counter ${report.lastVersion}; every table's rows and checksum agree between source and target; ${report.seconds.toFixed(1)} s`,
    )
    for (const line of carrySecretKey(from, to)) out.stderr(line)
    return 0
  } catch (error) {
    if (process.stderr.isTTY) process.stderr.write('\r\u001b[2K')
    if (!(error instanceof CopyError)) throw error
    out.stderr(`plantstore: ${error.message}`)
    return error.exitCode
  }
}
