import pg from 'pg'
import type { PostgresConfig } from '../../config/config.js'
import { type StoreLog, StoreUnavailableError } from '../store.js'

/**
 * SQLSTATE classes and client error codes that mean "this server cannot serve now":
 * a read-only transaction on a standby (25006), connection exceptions (08), invalid
 * authorization (28), unknown database (3D000), insufficient resources (53), operator
 * intervention: admin shutdown, cannot connect now, cancelled statements (57), a database
 * that does not accept connections (55000), system errors (58).
 */
const UNAVAILABLE_STATES = /^(08|28|3D|53|57|58)|^55000$|^25006$/
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN'])
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable/

export function isUnavailable(error: unknown): boolean {
  if (error instanceof StoreUnavailableError) return true
  const { code, message } = error as { code?: unknown; message?: unknown }
  if (typeof code === 'string' && (UNAVAILABLE_STATES.test(code) || UNAVAILABLE_CODES.has(code))) return true
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)
}

/** The error as the service should see it: StoreUnavailableError when the database cannot serve now. */
export function unavailableOr(error: unknown): unknown {
  if (!isUnavailable(error) || error instanceof StoreUnavailableError) return error
  return new StoreUnavailableError(`database unavailable: ${(error as Error).message}`, { cause: error })
}

export const isReadOnly = (error: unknown) => (error as { code?: unknown }).code === '25006'

/**
 * The server's `synchronous_commit` for a new session of this role, read through `pool`. The
 * service never sets a weaker one than the server's: a session's `synchronous_commit=on` would
 * silently undo a cluster's `remote_apply`. Only `off`, which would acknowledge writes a crash
 * can lose, is raised.
 */
async function serverSynchronousCommit(pool: pg.Pool): Promise<string> {
  try {
    const result = await pool.query<{ setting: string }>("SELECT current_setting('synchronous_commit') AS setting")
    return result.rows[0]?.setting ?? 'on'
  } catch (error) {
    throw unavailableOr(error)
  }
}

function poolOptions(config: PostgresConfig, url: string, raiseSynchronousCommit: boolean): pg.PoolConfig {
  return {
    connectionString: url,
    max: config.poolMax,
    connectionTimeoutMillis: config.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    // The client gives up a little after the server should have cancelled: no request hangs on a lost connection.
    query_timeout: config.statementTimeoutMs + 1_000,
    application_name: 'plantstore',
    // Startup settings are session state, which a transaction pooler refuses (PgBouncer: "unsupported
    // startup parameter"); without them the role's or database's own statement_timeout applies.
    ...(config.preparedStatements
      ? {
          statement_timeout: config.statementTimeoutMs,
          ...(raiseSynchronousCommit ? { options: '-c synchronous_commit=on' } : {}),
        }
      : {}),
  }
}

export interface Pools {
  primary: pg.Pool
  /** DATABASE_READ_URL's pool, or null. */
  read: pg.Pool | null
}

/**
 * The pools of DATABASE_URL and DATABASE_READ_URL. A server whose default would acknowledge
 * commits that are not durable (`synchronous_commit=off`) gets `on` for the service's sessions;
 * without session settings (PG_PREPARED_STATEMENTS=false) that cannot be done, and it is refused.
 */
export async function openPools(config: PostgresConfig, log: StoreLog): Promise<Pools> {
  const open = (url: string, name: string, raiseSynchronousCommit: boolean) => {
    const pool = new pg.Pool(poolOptions(config, url, raiseSynchronousCommit))
    // A connection that the server or a proxy closes while idle (restart, failover) must not crash the process.
    pool.on('error', (error) => log.warn({ err: error, pool: name }, 'a database connection was closed; the pool will open a new one'))
    return pool
  }
  // The setting is read on the pool's first connection, which the pool keeps: no extra connection.
  let primary = open(config.url, 'primary', false)
  const setting = await serverSynchronousCommit(primary).catch(async (error: unknown) => {
    await primary.end()
    throw error
  })
  if (setting === 'off') {
    await primary.end()
    if (!config.preparedStatements) {
      throw new Error(
        "the database's synchronous_commit is off, so a crash could lose acknowledged writes, and PG_PREPARED_STATEMENTS=false " +
          'lets the service set no session setting: set it on for the role (ALTER ROLE … SET synchronous_commit = on)',
      )
    }
    primary = open(config.url, 'primary', true)
  }
  return { primary, read: config.readUrl === null ? null : open(config.readUrl, 'read', setting === 'off') }
}

interface CheckedOut {
  client: pg.PoolClient
  /** The error the connection emitted while checked out, if any. */
  broken(): Error | undefined
  /** Gives the connection back; with an error (or once broken) the pool drops it. */
  release(error?: Error): void
}

/**
 * A connection of `pool` with an 'error' listener from the first instant. A connection cut
 * while checked out (HAProxy ends every session at a failover) emits 'error' on the client
 * itself, which ends the process when nobody listens. The listener is attached in the pool's
 * callback, not after an awaited promise: a message parsed from the same network chunk as the
 * connection's first ReadyForQuery (a backend terminated just after it started) would find no
 * listener in between.
 */
function checkOut(pool: pg.Pool): Promise<CheckedOut> {
  return new Promise((resolve, reject) => {
    pool.connect((error, client, done) => {
      if (error || client === undefined) {
        reject(unavailableOr(error))
        return
      }
      let broken: Error | undefined
      const onError = (cause: Error) => {
        broken ??= cause
      }
      client.on('error', onError)
      resolve({
        client,
        broken: () => broken,
        release(releaseError) {
          client.off('error', onError)
          done(releaseError ?? broken)
        },
      })
    })
  })
}

/**
 * Runs `work` on a connection checked out of `pool`. A connection that broke, or that errs as
 * unavailable (a standby's 25006), is released with the error so that the pool drops it and the
 * next request opens a new one, through the proxy, to whoever leads now.
 */
export async function withConnection<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  cleanUp?: (client: pg.PoolClient) => Promise<unknown>,
): Promise<T> {
  const connection = await checkOut(pool)
  let failure: Error | undefined
  try {
    return await work(connection.client)
  } catch (error) {
    if (isUnavailable(error)) failure = error as Error
    else if (connection.broken() === undefined && cleanUp !== undefined) {
      await cleanUp(connection.client).catch((cleanUpError: unknown) => {
        failure = cleanUpError as Error
      })
    }
    throw unavailableOr(error)
  } finally {
    connection.release(failure)
  }
}
