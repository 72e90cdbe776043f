import type BetterSqlite3 from 'better-sqlite3'
import type { Registry } from 'prom-client'
import { counterReading } from '../../observability/collected-metrics.js'
import { GroupCommit } from '../shared/group-commit.js'
import { idRange, pageKey, variantsByFilter } from '../shared/plant-query.js'
import { TOKEN_COLUMNS, type TokenRow, toPlant, toTokenRecord } from '../shared/rows.js'
import { KeysInFlight, replay } from '../shared/idempotency.js'
import { SharedTurnReads } from '../shared/shared-reads.js'
import {
  EMPTY_PAGE,
  type IdempotencyKey,
  type KeyedCreate,
  type NewPlant,
  type NewToken,
  type Plant,
  type PlantPage,
  type PlantQuery,
  type PlantStore,
  StoreUnavailableError,
  type TokenRecord,
} from '../store.js'
import { LOCK_WAIT_MS, migrateSqlite, openSqliteDatabase } from './database.js'
import { CACHED_PAGE_ROWS, PageCache } from './page-cache.js'

/** SQLite codes that mean the database cannot serve now (disk, locks, permissions), not a bug. */
const UNAVAILABLE_CODES = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|READONLY|CANTOPEN|CORRUPT|NOTADB|PROTOCOL)/

/** While another connection holds a lock, a statement or batch tries again this often, without blocking. */
const LOCK_RETRY_MS = 1

const isBusy = (error: unknown) => (error as { code?: unknown }).code === 'SQLITE_BUSY'

/** The error as the service should see it: StoreUnavailableError when the database cannot serve now. */
function unavailableOr(error: unknown): unknown {
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && UNAVAILABLE_CODES.test(code)) {
    return new StoreUnavailableError(`database unavailable: ${code} (${(error as Error).message})`, { cause: error })
  }
  return error
}

const sqliteTime = (milliseconds: number) => new Date(milliseconds)

/** A plant as the JSON object of the API, made by SQLite: `tag` is left out when it is NULL. */
const PLANT_JSON = "CASE WHEN tag IS NULL THEN json_object('name', name) ELSE json_object('name', name, 'tag', tag) END"

/** WHERE clause of a plant query, with the range of `idRange`. */
function plantFilter(byOwner: boolean, byTag: boolean): string {
  return [byOwner && 'owner = @owner', byTag && 'tag = @tag', 'id BETWEEN @from AND @to'].filter(Boolean).join(' AND ')
}

/** A write run inside a group commit's transaction; it answers the write's result. */
type Write = () => unknown

export class SqliteStore implements PlantStore {
  private readonly statements
  private readonly plantQueries
  private readonly writes: GroupCommit<Write, unknown>
  private readonly commitTransaction: BetterSqlite3.Transaction<(writes: Write[]) => unknown[]>
  private readonly pageCache = new PageCache()
  private readonly pageReads = new SharedTurnReads<PlantPage>()
  private readonly keysInFlight = new KeysInFlight()
  /** PRAGMA data_version when the cached pages were read: it changes when another connection commits. */
  private pagesDataVersion = -1
  /** Transactions committed and the writes they carried, for /metrics: their ratio is the writes per sync. */
  readonly commitCounts = { transactions: 0, writes: 0 }

  private constructor(private readonly db: BetterSqlite3.Database) {
    this.plantQueries = variantsByFilter((byOwner, byTag) => ({
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
    }))
    this.statements = {
      // Positional parameters: binding by name cost more per insert.
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
      findKey: db.prepare('SELECT fingerprint, created FROM idempotency_keys WHERE subject = ? AND key = ? AND created_at >= ?'),
      keepKey: db.prepare(
        'INSERT INTO idempotency_keys (subject, key, fingerprint, created, created_at) VALUES (?, ?, ?, ?, ?) ' +
          'ON CONFLICT (subject, key) DO UPDATE SET fingerprint = excluded.fingerprint, created = excluded.created, created_at = excluded.created_at',
      ),
      pruneKeys: db.prepare(
        'DELETE FROM idempotency_keys WHERE rowid IN (SELECT rowid FROM idempotency_keys WHERE created_at < ? LIMIT ?)',
      ),
      ping: db.prepare('SELECT 1').pluck(),
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
    }
    this.commitTransaction = db.transaction((writes: Write[]) => writes.map((write) => write()))
    this.writes = new GroupCommit((writes) => this.run(() => this.commitNow(writes)))
    // From here on a lock held by another connection fails at once, and `run` tries again
    // later: SQLite's own wait would sleep with the event loop blocked, in steps of up to 100 ms.
    db.pragma('busy_timeout = 0')
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

  /** One transaction (BEGIN IMMEDIATE: the write lock first, so a lock held elsewhere fails it before it writes). */
  private commitNow(writes: Write[]): unknown[] {
    // Whatever the outcome, this connection may have changed plants (data_version shows only others' commits).
    this.pageCache.clear()
    const results = this.commitTransaction.immediate(writes)
    this.commitCounts.transactions += 1
    this.commitCounts.writes += writes.length
    return results
  }

  /**
   * Runs `work` now; while another connection (a worker of WORKERS) holds a lock it needs,
   * again every millisecond up to LOCK_WAIT_MS, serving other requests meanwhile.
   */
  private run<T>(work: () => T, waitingSince?: number): Promise<T> {
    try {
      return Promise.resolve(work())
    } catch (error) {
      const since = waitingSince ?? Date.now()
      if (isBusy(error) && Date.now() - since < LOCK_WAIT_MS) {
        return new Promise((resolve) => setTimeout(() => resolve(this.run(work, since)), LOCK_RETRY_MS))
      }
      return Promise.reject(unavailableOr(error))
    }
  }

  createPlant(plant: NewPlant): Promise<boolean> {
    return this.writes.add(
      () => this.statements.insertPlant.run(plant.id, plant.owner, plant.name, plant.tag, Date.now()).changes === 1,
    ) as Promise<boolean>
  }

  /**
   * Joins the group commit like any create; inside the transaction, a fresh kept outcome of the
   * key is answered again, else the plant is inserted and its outcome kept. Each transaction is
   * atomic on the file, so two processes (WORKERS) with one key cannot both create.
   */
  createPlantWithKey(plant: NewPlant, key: IdempotencyKey): Promise<KeyedCreate> {
    return this.keysInFlight.run(plant.owner, key.key, () =>
      this.writes.add(() => {
        const kept = this.statements.findKey.get(plant.owner, key.key, key.keptSince.getTime()) as
          | { fingerprint: string; created: number }
          | undefined
        if (kept !== undefined) return replay({ fingerprint: kept.fingerprint, created: kept.created === 1 }, key)
        const now = Date.now()
        const created = this.statements.insertPlant.run(plant.id, plant.owner, plant.name, plant.tag, now).changes === 1
        this.statements.keepKey.run(plant.owner, key.key, key.fingerprint, created ? 1 : 0, now)
        return { outcome: created ? 'created' : 'exists', replayed: false }
      }) as Promise<KeyedCreate>,
    )
  }

  pruneIdempotencyKeys(before: Date, limit: number): Promise<number> {
    return this.writes.add(() => this.statements.pruneKeys.run(before.getTime(), limit).changes) as Promise<number>
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
    return this.writes.add(() => {
      const result = owner === null ? this.statements.deletePlant.run(id) : this.statements.deleteOwnPlant.run(id, owner)
      return result.changes === 1
    }) as Promise<boolean>
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
      const row = this.statements.findToken.get(hash) as TokenRow<number> | undefined
      return row === undefined ? null : toTokenRecord(row, sqliteTime)
    })
  }

  listTokens(): Promise<TokenRecord[]> {
    return this.run(() => (this.statements.listTokens.all() as TokenRow<number>[]).map((row) => toTokenRecord(row, sqliteTime)))
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
    counterReading(registry, 'db_commits_total', 'Write transactions committed, each with one sync to disk', () => counts.transactions)
    counterReading(registry, 'db_committed_writes_total', 'Writes those transactions carried (creates and deletes)', () => counts.writes)
  }

  async close(): Promise<void> {
    // Writes not yet committed are committed now, waiting for the write lock as long as SQLite may.
    await this.writes.flush()
    this.db.close()
  }
}
