import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import { Counter, type Registry } from 'prom-client'
import { StoreUnavailableError } from '../errors.js'
import type { Scope } from '../tokens.js'
import { readMigrations } from './migrations.js'
import { CACHED_PAGE_ROWS, PageCache, pageKey } from './page-cache.js'
import { idRange } from './plant-range.js'
import { SharedTurnReads } from './shared-reads.js'
import { Database } from './sqlite-driver.js'
import { inTheTurnAfter } from './turn-batch.js'
import { EMPTY_PAGE, type NewPlant, type NewToken, type Plant, type PlantPage, type PlantQuery, type PlantStore, type TokenRecord } from './store.js'

/** SQLite codes that mean the database cannot serve now (disk, locks, permissions), not a bug. */
const UNAVAILABLE_CODES = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|READONLY|CANTOPEN|CORRUPT|NOTADB|PROTOCOL)/

interface TokenRow {
  id: number
  subject: string
  scopes: string
  name: string | null
  created_at: number
  expires_at: number | null
  revoked_at: number | null
}

const TOKEN_COLUMNS = 'id, subject, scopes, name, created_at, expires_at, revoked_at'

/** How long SQLite may wait for a lock held by another connection before the request fails (503). */
const LOCK_WAIT_MS = 5_000
/** While another connection holds a lock, a batch or statement tries again this often, without blocking. */
const LOCK_RETRY_MS = 1

const isBusy = (error: unknown) => (error as { code?: unknown }).code === 'SQLITE_BUSY'
/** Whether a wait for a lock that began at `since` may go on. */
const mayWaitLonger = (since: number) => Date.now() - since < LOCK_WAIT_MS

/** The error as the service should see it: StoreUnavailableError when the database cannot serve now. */
function unavailableOr(error: unknown): unknown {
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && UNAVAILABLE_CODES.test(code)) {
    return new StoreUnavailableError(`database unavailable: ${code} (${(error as Error).message})`, { cause: error })
  }
  return error
}

function toTokenRecord(row: TokenRow): TokenRecord {
  return {
    id: row.id,
    subject: row.subject,
    scopes: row.scopes.split(' ') as Scope[],
    name: row.name,
    createdAt: new Date(row.created_at),
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at),
    revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at),
  }
}

function toPlant(row: { name: string; tag: string | null }): Plant {
  return row.tag === null ? { name: row.name } : { name: row.name, tag: row.tag }
}

/** A plant as the JSON object of the API, made by SQLite: `tag` is left out when it is NULL. */
const PLANT_JSON = "CASE WHEN tag IS NULL THEN json_object('name', name) ELSE json_object('name', name, 'tag', tag) END"

/** WHERE clause of a plant query, with the range of `idRange`. */
function plantFilter(byOwner: boolean, byTag: boolean): string {
  return [byOwner && 'owner = @owner', byTag && 'tag = @tag', 'id BETWEEN @from AND @to'].filter(Boolean).join(' AND ')
}

export function migrateSqlite(db: BetterSqlite3.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)')
  // IMMEDIATE takes the write lock first, so two processes migrating at once apply each file once.
  db.transaction(() => {
    const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[])
    for (const migration of readMigrations('sqlite')) {
      if (applied.has(migration.version)) continue
      db.exec(migration.sql)
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        Date.now(),
      )
    }
  }).immediate()
}

export function openSqliteDatabase(path: string): BetterSqlite3.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const db = new Database(path, { timeout: LOCK_WAIT_MS })
  db.pragma('journal_mode = WAL')
  // FULL syncs the WAL on every commit: an acknowledged write survives a power cut, not only a crash.
  db.pragma('synchronous = FULL')
  db.pragma('foreign_keys = ON')
  return db
}

interface PendingWrite {
  work: () => unknown
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

export class SqliteStore implements PlantStore {
  private readonly statements
  private pendingWrites: PendingWrite[] = []
  private readonly commitWrites: BetterSqlite3.Transaction<(writes: PendingWrite[]) => unknown[]>
  private readonly commitWrite: (write: PendingWrite) => unknown
  private readonly pageCache = new PageCache()
  private readonly pageReads = new SharedTurnReads<PlantPage>()
  /** PRAGMA data_version when the cached pages were read: it changes when another connection commits. */
  private pagesDataVersion = -1
  /** When the pending batch first found the write lock taken by another connection. */
  private lockWaitSince: number | null = null
  /** Transactions committed and the writes they carried, for /metrics: their ratio is the writes per sync. */
  readonly commitCounts = { transactions: 0, writes: 0 }

  constructor(private readonly db: BetterSqlite3.Database) {
    const plantQueries = (byOwner: boolean, byTag: boolean) => ({
      // One row with the page's JSON text: a JS value per plant cost more than the query itself.
      // (CAST: a bare bound LIMIT made SQLite's query measurably slower.)
      list: db
        .prepare(
          `SELECT group_concat(plant, ',' ORDER BY id), count(*), max(id) FROM (` +
            `SELECT id, ${PLANT_JSON} AS plant FROM plants WHERE ${plantFilter(byOwner, byTag)} ORDER BY id LIMIT CAST(@limit AS INTEGER))`,
        )
        .safeIntegers(true)
        .raw(true),
      nthId: db
        .prepare(`SELECT id FROM plants WHERE ${plantFilter(byOwner, byTag)} ORDER BY id LIMIT 1 OFFSET @offset`)
        .pluck()
        .safeIntegers(true),
    })
    this.statements = {
      plants: [
        [plantQueries(false, false), plantQueries(false, true)],
        [plantQueries(true, false), plantQueries(true, true)],
      ] as const,
      // Positional parameters: binding by name cost ~1 µs more per insert.
      insertPlant: db.prepare('INSERT INTO plants (id, owner, name, tag, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING'),
      getPlant: db.prepare('SELECT name, tag FROM plants WHERE id = ?'),
      getOwnPlant: db.prepare('SELECT name, tag FROM plants WHERE id = ? AND owner = ?'),
      deletePlant: db.prepare('DELETE FROM plants WHERE id = ?'),
      deleteOwnPlant: db.prepare('DELETE FROM plants WHERE id = ? AND owner = ?'),
      insertToken: db.prepare(
        'INSERT INTO tokens (hash, subject, scopes, name, created_at, expires_at) VALUES (@hash, @subject, @scopes, @name, @createdAt, @expiresAt)',
      ),
      insertFirstToken: db.prepare(
        'INSERT INTO tokens (hash, subject, scopes, name, created_at, expires_at) SELECT @hash, @subject, @scopes, @name, @createdAt, @expiresAt WHERE NOT EXISTS (SELECT 1 FROM tokens)',
      ),
      findToken: db.prepare(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE hash = ?`),
      listTokens: db.prepare(`SELECT ${TOKEN_COLUMNS} FROM tokens ORDER BY id`),
      revokeToken: db.prepare('UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
      ping: db.prepare('SELECT 1').pluck(),
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
    }
    this.commitWrites = db.transaction((writes: PendingWrite[]) => writes.map((write) => write.work()))
    this.commitWrite = db.transaction((write: PendingWrite) => write.work())
    // From here on a lock held by another connection fails at once, and `write` and `run` try
    // again later: SQLite's own wait would sleep with the event loop blocked.
    db.pragma('busy_timeout = 0')
  }

  /**
   * Group commit: the writes that arrive in one turn of the event loop, and in the turn after,
   * share one transaction and so one sync to disk. Each promise settles only after its write
   * is committed. While another process (a worker of WORKERS) holds the write lock, the batch
   * tries again every millisecond and gathers the writes that arrive meanwhile: SQLite's own
   * wait would sleep with the event loop blocked, in steps of up to 100 ms.
   */
  private write<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pendingWrites.push({ work, resolve: resolve as (value: unknown) => void, reject })
      if (this.pendingWrites.length === 1) inTheTurnAfter(this.flushWrites)
    })
  }

  private readonly flushWrites = (): void => {
    if (this.pendingWrites.length === 0) return
    try {
      // BEGIN IMMEDIATE takes the write lock first, so a lock held elsewhere fails the batch before it writes.
      this.commitPending(this.commitWrites.immediate, true)
    } catch (error) {
      if (!isBusy(error)) throw error
      // Another connection holds the write lock: nothing was written; try again shortly.
      this.lockWaitSince ??= Date.now()
      if (mayWaitLonger(this.lockWaitSince)) {
        setTimeout(this.flushWrites, LOCK_RETRY_MS)
        return
      }
      this.lockWaitSince = null
      const writes = this.pendingWrites.splice(0)
      for (const write of writes) write.reject(unavailableOr(error))
    }
  }

  /**
   * Commits every pending write in one transaction and settles each. With `retryWhenBusy`,
   * SQLITE_BUSY (the transaction, rolled back, wrote nothing) is thrown with the writes still pending.
   */
  private commitPending(commit: (writes: PendingWrite[]) => unknown[], retryWhenBusy: boolean): void {
    const writes = this.pendingWrites
    // Whatever the outcome, this connection may have changed plants (data_version shows only others' commits).
    this.pageCache.clear()
    let values: unknown[]
    try {
      values = commit(writes)
    } catch (error) {
      if (retryWhenBusy && isBusy(error)) throw error
      this.pendingWrites = []
      this.lockWaitSince = null
      this.settleFailedBatch(writes, error)
      return
    }
    this.pendingWrites = []
    this.lockWaitSince = null
    this.countCommit(writes.length)
    writes.forEach((write, i) => write.resolve(values[i]))
  }

  private countCommit(writes: number): void {
    this.commitCounts.transactions += 1
    this.commitCounts.writes += writes
  }

  private settleFailedBatch(writes: PendingWrite[], error: unknown): void {
    const failure = unavailableOr(error)
    if (failure instanceof StoreUnavailableError || writes.length === 1) {
      for (const write of writes) write.reject(failure)
      return
    }
    // The batch was rolled back because of one of its writes: each again on its own, so
    // that one bad write does not fail the others.
    for (const write of writes) {
      try {
        const value = this.commitWrite(write)
        this.countCommit(1)
        write.resolve(value)
      } catch (writeError) {
        write.reject(unavailableOr(writeError))
      }
    }
  }

  static open(path: string): SqliteStore {
    const db = openSqliteDatabase(path)
    try {
      migrateSqlite(db)
    } catch (error) {
      db.close()
      throw error
    }
    return new SqliteStore(db)
  }

  private plantQueries(query: PlantQuery) {
    return this.statements.plants[query.owner === null ? 0 : 1][query.tag === null ? 0 : 1]
  }

  /** Runs `work` now; while another connection holds a lock it needs, again every millisecond, up to LOCK_WAIT_MS. */
  private run<T>(work: () => T, waitingSince?: number): Promise<T> {
    try {
      return Promise.resolve(work())
    } catch (error) {
      const since = waitingSince ?? Date.now()
      if (isBusy(error) && mayWaitLonger(since)) {
        return new Promise((resolve) => setTimeout(() => resolve(this.run(work, since)), LOCK_RETRY_MS))
      }
      return Promise.reject(unavailableOr(error))
    }
  }

  createPlant(plant: NewPlant): Promise<boolean> {
    return this.write(
      () => this.statements.insertPlant.run(plant.id, plant.owner, plant.name, plant.tag, Date.now()).changes === 1,
    )
  }

  /**
   * Pages a client asks for again and again (a first page polled) come from the page cache
   * while no connection has committed since they were read: checking costs one PRAGMA,
   * a fraction of the query. Identical lists of one turn share one check, at its end.
   */
  listPlants(query: PlantQuery, limit: number): Promise<PlantPage> {
    if (limit > CACHED_PAGE_ROWS) return this.run(() => this.readPage(query, limit))
    const key = pageKey(query, limit)
    return this.pageReads.read(key, () => this.run(() => this.cachedPage(key, query, limit)))
  }

  private cachedPage(key: string, query: PlantQuery, limit: number): PlantPage {
    const dataVersion = this.statements.dataVersion.get() as number
    if (dataVersion !== this.pagesDataVersion) {
      this.pageCache.clear()
      this.pagesDataVersion = dataVersion
    }
    const cached = this.pageCache.get(key)
    if (cached !== undefined) return cached
    const page = this.readPage(query, limit)
    this.pageCache.set(key, page)
    return page
  }

  private readPage(query: PlantQuery, limit: number): PlantPage {
    const range = idRange(query)
    if (range === null || limit <= 0) return EMPTY_PAGE
    const [json, count, lastId] = this.plantQueries(query).list.get({ owner: query.owner, tag: query.tag, ...range, limit }) as [
      string | null,
      bigint,
      bigint | null,
    ]
    return { json: json ?? '', count: Number(count), lastId }
  }

  nthPlantId(query: PlantQuery, n: number): Promise<bigint | null> {
    return this.run(() => {
      const range = idRange(query)
      if (range === null || n <= 0) return null
      const id = this.plantQueries(query).nthId.get({ owner: query.owner, tag: query.tag, ...range, offset: n - 1 })
      return (id as bigint | undefined) ?? null
    })
  }

  getPlant(id: bigint, owner: string | null): Promise<Plant | null> {
    return this.run(() => {
      const row = (owner === null ? this.statements.getPlant.get(id) : this.statements.getOwnPlant.get(id, owner)) as
        | { name: string; tag: string | null }
        | undefined
      return row === undefined ? null : toPlant(row)
    })
  }

  deletePlant(id: bigint, owner: string | null): Promise<boolean> {
    return this.write(() => {
      const result = owner === null ? this.statements.deletePlant.run(id) : this.statements.deleteOwnPlant.run(id, owner)
      return result.changes === 1
    })
  }

  private tokenParams(token: NewToken) {
    return {
      hash: token.hash,
      subject: token.subject,
      scopes: token.scopes.join(' '),
      name: token.name,
      createdAt: Date.now(),
      expiresAt: token.expiresAt?.getTime() ?? null,
    }
  }

  createToken(token: NewToken): Promise<number> {
    return this.run(() => Number(this.statements.insertToken.run(this.tokenParams(token)).lastInsertRowid))
  }

  createFirstToken(token: NewToken): Promise<number | null> {
    return this.run(() => {
      const result = this.statements.insertFirstToken.run(this.tokenParams(token))
      return result.changes === 1 ? Number(result.lastInsertRowid) : null
    })
  }

  findTokenByHash(hash: string): Promise<TokenRecord | null> {
    return this.run(() => {
      const row = this.statements.findToken.get(hash) as TokenRow | undefined
      return row === undefined ? null : toTokenRecord(row)
    })
  }

  listTokens(): Promise<TokenRecord[]> {
    return this.run(() => (this.statements.listTokens.all() as TokenRow[]).map(toTokenRecord))
  }

  revokeToken(id: number): Promise<boolean> {
    return this.run(() => this.statements.revokeToken.run(Date.now(), id).changes === 1)
  }

  ping(): Promise<void> {
    return this.run(() => {
      this.statements.ping.get()
    })
  }

  /** How well group commit shares its syncs, for /metrics. */
  registerMetrics(registry: Registry): void {
    const counts = this.commitCounts
    const counter = (name: string, help: string, read: () => number) =>
      new Counter({
        name,
        help,
        registers: [registry],
        collect() {
          this.reset()
          this.inc(read())
        },
      })
    counter('db_commits_total', 'Write transactions committed, each with one sync to disk', () => counts.transactions)
    counter('db_committed_writes_total', 'Writes those transactions carried (creates and deletes)', () => counts.writes)
  }

  close(): Promise<void> {
    // Writes not yet committed are committed now, waiting for the write lock as long as SQLite may.
    if (this.pendingWrites.length > 0) {
      this.db.pragma(`busy_timeout = ${LOCK_WAIT_MS}`)
      this.commitPending(this.commitWrites, false)
    }
    this.db.close()
    return Promise.resolve()
  }
}
