import { existsSync, readFileSync, statSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { ConfigError, loadConfig, loadDotEnv } from './config/config.js'
import { openStore } from './open-store.js'
import type { PlantStore, TokenRecord, TokenRecords } from './store/store.js'
import { issueToken } from './auth/issue-token.js'
import { DEFAULT_SCOPES, SCOPES, type Scope, isScope } from './api/scopes.js'
import { parseDuration } from './config/duration.js'

const USAGE = `usage: plantstore <command>
  serve                                   start the HTTP service (npm start)
  migrate [--status]                      bring the database schema up to date and exit; with --status, list
                                          each migration as applied or pending (exit 1 while any is pending,
                                          3 when the database cannot be read, 4 for a newer SQLite file)
  token create --subject S [--scope plants:read,plants:write] [--expires-in 30d] [--name LABEL]
                                          make a token and print only the token; scopes:
                                          plants:read, plants:write, plants:admin, webhooks:manage
                                          (--scope may be repeated: they add up)
  token list [--json]                     one line per token, tab-separated: id, subject, scopes, created,
                                          expires (never), revoked (no), name (empty); with --json one
                                          JSON array; never the token itself
  token revoke ID                         revoke a token by its id
  backup --to PATH                        a consistent copy of the SQLite database, while the service runs
                                          (PostgreSQL: use pgBackRest)
  restore --from PATH                     put a backup in place of the SQLite database, the service stopped;
                                          the current one is moved aside, never deleted
  copy --from URL --to URL                copy everything a store keeps into an empty one (sqlite:PATH or
                                          postgres://…, either way), checked table by table
  help, --help, -h                        print this text
  --version                               print the version

Every command reads its configuration from the environment (and a .env file): see the README.`

class UsageError extends Error {}

/** A command that was understood but could not be done (an unknown token id): one line, exit 1. */
class CommandError extends Error {}

interface Output {
  stdout: (line: string) => void
  stderr: (line: string) => void
  /** Resolves once every stdout line so far is written; rejects with the first write's error. */
  flush?: () => Promise<void>
}

/** A write to standard output failed (a full disk, a reader gone): told in one line, exit 1. */
class StdoutError extends Error {
  constructor(override readonly cause: Error) {
    super(`cannot write to standard output: ${(cause as { code?: string }).code ?? cause.message}`)
  }
}

const isEpipe = (error: Error) => (error as { code?: string }).code === 'EPIPE'

let stdoutFailure: Error | undefined
// Without a listener a failed write is an unhandled 'error' event: a stack trace instead of one line.
process.stdout.on('error', (error: Error) => (stdoutFailure ??= error))

const consoleOutput: Output = {
  stdout: (line) => {
    if (stdoutFailure === undefined) process.stdout.write(`${line}\n`, (error) => error && (stdoutFailure ??= error))
  },
  stderr: (line) => process.stderr.write(`${line}\n`),
  flush: () =>
    new Promise((resolve, reject) => {
      const settle = () => (stdoutFailure === undefined ? resolve() : reject(new StdoutError(stdoutFailure)))
      if (stdoutFailure !== undefined || process.stdout.destroyed) return settle()
      process.stdout.write('', settle)
    }),
}

function parseScopes(text: string): Scope[] {
  const scopes = text.split(',').map((scope) => scope.trim())
  const unknown = scopes.filter((scope) => !isScope(scope))
  if (unknown.length > 0 || scopes.length === 0) {
    throw new UsageError(`unknown scope '${unknown.join(',')}': use ${SCOPES.join(', ')}`)
  }
  return [...new Set(scopes as Scope[])]
}

function parseSubject(text: string | undefined): string {
  if (text === undefined) throw new UsageError('token create needs --subject NAME')
  // eslint-disable-next-line no-control-regex
  if (!/^[^\s\x00-\x1f\x7f]{1,200}$/.test(text)) {
    throw new UsageError('--subject must be 1 to 200 characters without white space')
  }
  return text
}

/** What a checked token command does once the database is open. */
type TokenWork = (tokens: TokenRecords, out: Output) => Promise<void>

function parseCreateToken(args: string[]): TokenWork {
  const { values } = parseArgs({
    args,
    options: {
      subject: { type: 'string', multiple: true },
      scope: { type: 'string', multiple: true },
      'expires-in': { type: 'string', multiple: true },
      name: { type: 'string', multiple: true },
    },
    strict: true,
    allowPositionals: false,
  })
  // A repeated option would silently keep only its last value: refused, except --scope, whose values add up.
  for (const option of ['subject', 'expires-in', 'name'] as const) {
    if ((values[option]?.length ?? 0) > 1) throw new UsageError(`--${option} is given more than once`)
  }
  const subject = parseSubject(values.subject?.[0])
  const scopes = values.scope === undefined ? DEFAULT_SCOPES : parseScopes(values.scope.join(','))
  const name = values.name?.[0] ?? null
  // eslint-disable-next-line no-control-regex
  if (name !== null && /[\x00-\x1f\x7f]/.test(name)) throw new UsageError('--name must not hold control characters (tabs, line breaks)')
  let lifetime: number | null = null
  const expiresIn = values['expires-in']?.[0]
  if (expiresIn !== undefined) {
    const duration = parseDuration(expiresIn)
    if (duration === undefined) throw new UsageError('--expires-in takes a number and a unit: 90s, 45m, 12h, 30d')
    lifetime = duration
  }
  return async (tokens, out) => {
    // Counted from the moment the token is made, not when the arguments were read, and rounded
    // up to a whole second: an expiry shown in seconds is never sooner than asked.
    const createdAt = new Date()
    const expiresAt = lifetime === null ? null : new Date(Math.ceil((createdAt.getTime() + lifetime) / 1000) * 1000)
    const { id, token } = await issueToken(tokens, { subject, scopes, name, expiresAt, createdAt })
    out.stdout(token)
    try {
      await out.flush?.()
    } catch (error) {
      // Nobody saw the token: it must not stay usable.
      await tokens.revoke(id)
      throw new CommandError(`${(error as Error).message}; token ${id} was made and is revoked`)
    }
  }
}

function tokenLine(token: TokenRecord): string {
  return [
    token.id,
    token.subject,
    token.scopes.join(','),
    token.createdAt.toISOString(),
    token.expiresAt?.toISOString() ?? 'never',
    token.revokedAt?.toISOString() ?? 'no',
    // Names made before control characters were refused must not break the columns either.
    // eslint-disable-next-line no-control-regex
    (token.name ?? '').replace(/[\x00-\x1f\x7f]/g, ' '),
  ].join('\t')
}

/** The machine-readable form of a token's record; never the token, which is not kept. */
function tokenJson(token: TokenRecord) {
  return {
    id: token.id,
    subject: token.subject,
    scopes: token.scopes,
    createdAt: token.createdAt.toISOString(),
    expiresAt: token.expiresAt?.toISOString() ?? null,
    revokedAt: token.revokedAt?.toISOString() ?? null,
    name: token.name,
  }
}

/** The version in package.json, which ships with the package. */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  return manifest.version
}

/** `plantstore token …`: every argument checked here, before the database is opened. */
export function parseTokenCommand(args: string[]): TokenWork {
  const [action, ...rest] = args
  switch (action) {
    case 'create':
      return parseCreateToken(rest)
    case 'list': {
      const json = rest.length === 1 && rest[0] === '--json'
      if (rest.length > 0 && !json) throw new UsageError('token list takes no arguments but --json')
      return async (tokens, out) => {
        const listed = await tokens.list()
        if (json) out.stdout(JSON.stringify(listed.map(tokenJson)))
        else for (const token of listed) out.stdout(tokenLine(token))
      }
    }
    case 'revoke': {
      const [id, ...extra] = rest
      if (id === undefined || extra.length > 0 || !/^[1-9][0-9]{0,15}$/.test(id)) {
        throw new UsageError('token revoke takes one token id, as shown by token list')
      }
      return async (tokens, out) => {
        if (!(await tokens.revoke(Number(id)))) throw new CommandError(`no token ${id} that is not already revoked`)
        out.stderr(`revoked token ${id}`)
      }
    }
    default:
      throw new UsageError(`unknown token command '${action ?? ''}'`)
  }
}

/** `plantstore token …` on an open store. */
export async function tokenCommand(tokens: TokenRecords, args: string[], out: Output): Promise<void> {
  await parseTokenCommand(args)(tokens, out)
}

/** The one path an option names, given once. */
function onePath(command: 'backup' | 'restore', args: string[], option: 'to' | 'from'): string {
  const { values } = parseArgs({ args, options: { [option]: { type: 'string', multiple: true } }, strict: true, allowPositionals: false })
  const paths = values[option] as string[] | undefined
  if (paths === undefined || paths.length !== 1 || paths[0] === '') throw new UsageError(`${command} takes --${option} PATH, once`)
  return paths[0] as string
}

/** `plantstore backup --to PATH` and `restore --from PATH`: SQLite's own copy; PostgreSQL has pgBackRest. */
async function backupCommand(command: 'backup' | 'restore', args: string[], out: Output): Promise<number> {
  const path = onePath(command, args, command === 'backup' ? 'to' : 'from')
  // An argument that cannot be used, refused before anything is opened (sqlite-backup checks
  // again): one line, the cause, not the usage text (the command was written right).
  if (command === 'backup' && existsSync(path)) {
    const what = statSync(path).isDirectory()
      ? 'that is a folder; name a new file in it'
      : 'that file exists; a backup never overwrites a file'
    out.stderr(`plantstore: backup --to ${path}: ${what}`)
    return 2
  }
  const { database, webhooks } = loadConfig()
  if (database.kind !== 'sqlite') {
    out.stderr(`plantstore: ${command} is for the embedded SQLite store; back PostgreSQL up with pgBackRest (docs/backups.md)`)
    return 2
  }
  const { backupSqlite } = await import('./backup/sqlite-backup.js')
  const { restoreSqlite } = await import('./backup/sqlite-restore.js')
  const { BackupError } = await import('./backup/sqlite-file.js')
  try {
    if (command === 'backup') {
      const made = backupSqlite(database.path, path)
      out.stdout(`backup: ${made.path}, ${made.bytes} bytes, ${made.plants} plants, ${made.seconds.toFixed(1)} s`)
    } else {
      const restored = await restoreSqlite(database.path, path)
      const aside = restored.previous === null ? 'there was no database before' : `the previous database is at ${restored.previous}`
      out.stdout(`restore: ${database.path} now holds the ${restored.plants} plants of ${path}; ${aside}`)
      const { restoredKeyProblem } = await import('./backup/restored-key-check.js')
      const problem = restoredKeyProblem(database.path, webhooks.secretKey)
      if (problem !== null) out.stderr(`plantstore: warning: the service will not start on the restored database: ${problem}`)
    }
    return 0
  } catch (error) {
    if (!(error instanceof BackupError)) throw error
    out.stderr(`plantstore: ${error.message}`)
    return error.exitCode
  }
}

/** Exit codes of `migrate --status` beyond 0 (nothing pending) and 1 (some pending); docs/upgrading.md. */
const STATUS_UNREADABLE = 3
const STATUS_NEWER_SQLITE = 4

/**
 * One line per migration, applied, pending or unknown (applied by a newer release); exit 1 while
 * any is pending, 3 when the database cannot be read, 4 for a SQLite file this release refuses.
 */
async function migrateStatus(out: Output): Promise<number> {
  const { readMigrationStatus } = await import('./lifecycle/migration-status.js')
  const { database } = loadConfig()
  let status
  try {
    status = await readMigrationStatus(database)
  } catch (error) {
    out.stderr(`plantstore: cannot read the database's migrations: ${(error as Error).message}`)
    return STATUS_UNREADABLE
  }
  for (const name of status.applied) out.stdout(`applied\t${name}`)
  for (const name of status.unknown) out.stdout(`unknown\t${name}`)
  for (const name of status.pending) out.stdout(`pending\t${name}`)
  if (status.pending.length > 0) return 1
  return database.kind === 'sqlite' && status.unknown.length > 0 ? STATUS_NEWER_SQLITE : 0
}

/**
 * `plantstore migrate`: opening the store migrates it; what the database then records is what
 * is said. A read-only PostgreSQL (a standby) opens without migrating, so it is checked here.
 */
async function migrateCommand(out: Output): Promise<number> {
  const { database } = loadConfig()
  await withStore(async () => {})
  const { readMigrationStatus } = await import('./lifecycle/migration-status.js')
  const status = await readMigrationStatus(database)
  if (status.pending.length > 0) {
    out.stderr(
      `plantstore: the database is read-only (a standby?): ${status.pending.length} migrations still pending (${status.pending.join(', ')}); run migrate against the primary`,
    )
    return 1
  }
  if (status.unknown.length > 0) {
    out.stdout(`the database schema is up to date for this release; a newer release applied ${status.unknown.join(', ')}`)
  } else out.stdout('the database schema is up to date')
  return 0
}

async function withStore(work: (store: PlantStore) => Promise<void>): Promise<void> {
  const store = await openStore(loadConfig().database)
  try {
    await work(store)
  } finally {
    await store.close()
  }
}

/**
 * Runs one command; resolves to the exit code, or to null while `serve` keeps the process running.
 * Output that could not be written is exit 1: one line, none when the reader left (EPIPE).
 */
export async function main(argv: string[], out: Output = consoleOutput): Promise<number | null> {
  const code = await runCommand(argv, out)
  if (code === null || out.flush === undefined) return code
  try {
    await out.flush()
    return code
  } catch (error) {
    const failure = error as StdoutError
    // A command that failed has said so already (token create: that the write failed).
    if (code !== 0) return code
    if (!isEpipe(failure.cause)) out.stderr(`plantstore: ${failure.message}`)
    return 1
  }
}

async function runCommand(argv: string[], out: Output): Promise<number | null> {
  const [command, ...args] = argv
  if (command === 'help' || command === '--help' || command === '-h') {
    out.stdout(USAGE)
    return 0
  }
  // `serve --help`, `token create -h`: the usage, whatever else the line holds, and nothing touched.
  if (args.some((arg) => arg === '--help' || arg === '-h')) {
    out.stdout(USAGE)
    return 0
  }
  try {
    if (command === '--version') {
      if (args.length > 0) throw new UsageError('--version takes no arguments')
      out.stdout(packageVersion())
      return 0
    }
    loadDotEnv()
    switch (command) {
      case 'serve':
        if (args.length > 0) throw new UsageError('serve takes no arguments; configure it by environment')
        try {
          // Loaded only to serve: the token, backup and migrate commands start in about half the time.
          const { serve } = await import('./server.js')
          await serve(loadConfig())
        } catch (error) {
          if (error instanceof ConfigError) throw error
          // The caller ends the process: a start that cannot finish must not linger serving nothing.
          out.stderr(`plantstore: cannot start: ${(error as Error).message}`)
          return 1
        }
        return null
      case 'migrate':
        if (args.length === 1 && args[0] === '--status') return await migrateStatus(out)
        if (args.length > 0) throw new UsageError('migrate takes no arguments but --status; configure it by environment')
        return await migrateCommand(out)
      case 'token': {
        const work = parseTokenCommand(args)
        await withStore((store) => work(store.tokens, out))
        return 0
      }
      case 'backup':
      case 'restore':
        return await backupCommand(command, args, out)
      case 'copy': {
        const { copyCommand } = await import('./copy/copy-command.js')
        return await copyCommand(args, out, (message) => new UsageError(message))
      }
      default:
        throw new UsageError(command === undefined ? 'a command is needed' : `unknown command '${command}'`)
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      out.stderr(`plantstore: invalid configuration: ${error.message}`)
      return 2
    }
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      out.stderr(`plantstore: ${(error as Error).message}`)
      out.stderr(USAGE)
      return 2
    }
    out.stderr(`plantstore: ${(error as Error).message}`)
    return 1
  }
}
