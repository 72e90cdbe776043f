import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { ConfigError, loadConfig, loadDotEnv } from './config/config.js'
import { serve } from './server.js'
import { openStore } from './open-store.js'
import type { PlantStore, TokenRecord } from './store/store.js'
import { issueToken } from './auth/issue-token.js'
import { DEFAULT_SCOPES, SCOPES, type Scope, isScope } from './api/scopes.js'
import { parseDuration } from './config/duration.js'

const USAGE = `usage: plantstore <command>
  serve                                   start the HTTP service (npm start)
  migrate                                 bring the database schema up to date and exit
  token create --subject S [--scope plants:read,plants:write] [--expires-in 30d] [--name LABEL]
                                          make a token and print only the token; scopes:
                                          plants:read, plants:write, plants:admin, webhooks:manage
  token list [--json]                     one line per token: id, subject, scopes, created, expires, revoked,
                                          name; with --json one JSON array; never the token itself
  token revoke ID                         revoke a token by its id
  help, --help, -h                        print this text
  --version                               print the version

Every command reads its configuration from the environment (and a .env file): see the README.`

class UsageError extends Error {}

interface Output {
  stdout: (line: string) => void
  stderr: (line: string) => void
}

const consoleOutput: Output = {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
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

async function createToken(store: PlantStore, args: string[], out: Output): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      subject: { type: 'string' },
      scope: { type: 'string' },
      'expires-in': { type: 'string' },
      name: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  })
  const subject = parseSubject(values.subject)
  const scopes = values.scope === undefined ? DEFAULT_SCOPES : parseScopes(values.scope)
  let expiresAt: Date | null = null
  if (values['expires-in'] !== undefined) {
    const duration = parseDuration(values['expires-in'])
    if (duration === undefined) throw new UsageError('--expires-in takes a number and a unit: 90s, 45m, 12h, 30d')
    expiresAt = new Date(Date.now() + duration)
  }
  out.stdout(await issueToken(store, { subject, scopes, name: values.name ?? null, expiresAt }))
}

function tokenLine(token: TokenRecord): string {
  return [
    token.id,
    token.subject,
    token.scopes.join(','),
    token.createdAt.toISOString(),
    token.expiresAt ? `expires=${token.expiresAt.toISOString()}` : 'expires=never',
    token.revokedAt ? `revoked=${token.revokedAt.toISOString()}` : 'revoked=no',
    ...(token.name === null ? [] : [`name=${JSON.stringify(token.name)}`]),
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

/** `plantstore token …` on an open store. */
export async function tokenCommand(store: PlantStore, args: string[], out: Output): Promise<void> {
  const [action, ...rest] = args
  switch (action) {
    case 'create':
      return createToken(store, rest, out)
    case 'list': {
      const json = rest.length === 1 && rest[0] === '--json'
      if (rest.length > 0 && !json) throw new UsageError('token list takes no arguments but --json')
      const tokens = await store.listTokens()
      if (json) out.stdout(JSON.stringify(tokens.map(tokenJson)))
      else for (const token of tokens) out.stdout(tokenLine(token))
      return
    }
    case 'revoke': {
      const [id, ...extra] = rest
      if (id === undefined || extra.length > 0 || !/^[1-9][0-9]{0,15}$/.test(id)) {
        throw new UsageError('token revoke takes one token id, as shown by token list')
      }
      if (!(await store.revokeToken(Number(id)))) throw new UsageError(`no token ${id} that is not already revoked`)
      out.stderr(`revoked token ${id}`)
      return
    }
    default:
      throw new UsageError(`unknown token command '${action ?? ''}'`)
  }
}

async function withStore(work: (store: PlantStore) => Promise<void>): Promise<void> {
  const store = await openStore(loadConfig().database)
  try {
    await work(store)
  } finally {
    await store.close()
  }
}

/** Runs one command; resolves to the exit code, or to null while `serve` keeps the process running. */
export async function main(argv: string[], out: Output = consoleOutput): Promise<number | null> {
  const [command, ...args] = argv
  if (command === 'help' || command === '--help' || command === '-h') {
    out.stdout(USAGE)
    return 0
  }
  if (command === '--version') {
    out.stdout(packageVersion())
    return 0
  }
  try {
    loadDotEnv()
    switch (command) {
      case 'serve':
        if (args.length > 0) throw new UsageError('serve takes no arguments; configure it by environment')
        try {
          await serve(loadConfig())
        } catch (error) {
          if (error instanceof ConfigError) throw error
          // The caller ends the process: a start that cannot finish must not linger serving nothing.
          out.stderr(`plantstore: cannot start: ${(error as Error).message}`)
          return 1
        }
        return null
      case 'migrate':
        await withStore(async () => out.stderr('the database schema is up to date'))
        return 0
      case 'token':
        await withStore((store) => tokenCommand(store, args, out))
        return 0
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
