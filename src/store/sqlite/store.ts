import type BetterSqlite3 from 'better-sqlite3'
import type { Registry } from 'prom-client'
import { NEW_PLANT, PLANT_DELETED } from '../../api/events.js'
import { disableCause } from '../shared/disable.js'
import { counterReading } from '../../observability/collected-metrics.js'
import { GroupCommit } from '../shared/group-commit.js'
import { idRange, pageKey, variantsByFilter } from '../shared/plant-query.js'
import {
  SUBSCRIPTION_COLUMNS,
  type SubscriptionRow,
  TOKEN_COLUMNS,
  type TokenRow,
  toPlant,
  type ClaimRow,
  DELIVERY_COLUMNS,
  type DeliveryRow,
  receives,
  toClaimedDelivery,
  toDeliveryRecord,
  toSubscription,
  toTokenRecord,
} from '../shared/rows.js'
import { KeysInFlight, replay } from '../shared/idempotency.js'
import { SharedTurnReads } from '../shared/shared-reads.js'
import {
  type ClaimedDelivery,
  type DeliveryRecord,
  type DisablePolicy,
  type DisabledSubscription,
  EMPTY_PAGE,
  PING_PLANT_ID,
  type Redelivery,
  type FinishedDelivery,
  type IdempotencyKey,
  type KeyedCreate,
  type NewPlant,
  type NewToken,
  type Plant,
  type PlantPage,
  type PlantQuery,
  type PlantStore,
  StoreUnavailableError,
  DISABLED_BY_REQUEST,
  type NewSubscription,
  type Subscription,
  type SubscriptionChange,
  type TokenRecord,
  type WebhookBacklog,
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

/** Above every row id: the first page of a log. */
const INT64_MAX = 2n ** 63n - 1n
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
  /** Whether an active subscription existed when the current write transaction began. */
  private subscribed = false
  /** Events this process is attempting, and until when each claim holds. */
  private readonly claims = new Map<bigint, number>()
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
      // The owner names whose subscriptions hear of the deletion.
      deletePlant: db.prepare('DELETE FROM plants WHERE id = ? RETURNING owner').pluck(),
      deleteOwnPlant: db.prepare('DELETE FROM plants WHERE id = ? AND owner = ? RETURNING owner').pluck(),
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
      // One event per active subscription covering the owner, in the transaction of the plant.
      insertEvents: db.prepare(
        'INSERT INTO webhook_deliveries (subscription_id, event, message_id, plant_id, body, next_attempt_at, created_at, trace_parent) ' +
          `SELECT id, '${NEW_PLANT.name}', 'msg_' || lower(hex(randomblob(16))), ?, ?, ?, ?, ? FROM webhook_subscriptions ` +
          `WHERE disabled_at IS NULL AND (all_plants = 1 OR subject = ?) AND ${receives('events', NEW_PLANT.name)}`,
      ),
      insertDeletedEvents: db.prepare(
        'INSERT INTO webhook_deliveries (subscription_id, event, message_id, plant_id, body, next_attempt_at, created_at, trace_parent) ' +
          `SELECT id, '${PLANT_DELETED.name}', 'msg_' || lower(hex(randomblob(16))), ?, ?, ?, ?, ? FROM webhook_subscriptions ` +
          `WHERE disabled_at IS NULL AND (all_plants = 1 OR subject = ?) AND ${receives('events', PLANT_DELETED.name)}`,
      ),
      anySubscription: db.prepare('SELECT 1 FROM webhook_subscriptions WHERE disabled_at IS NULL LIMIT 1').pluck(),
      insertSubscription: db.prepare(
        'INSERT INTO webhook_subscriptions (id, subject, all_plants, url, events, secret, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      getSubscription: db.prepare(`SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE id = ? AND (? IS NULL OR subject = ?)`),
      updateSubscription: db.prepare(
        'UPDATE webhook_subscriptions SET url = coalesce(@url, url), events = coalesce(@events, events), ' +
          'disabled_at = CASE WHEN @enabled IS NULL THEN disabled_at WHEN @enabled = 1 THEN NULL ELSE coalesce(disabled_at, @now) END, ' +
          'disabled_reason = CASE WHEN @enabled IS NULL THEN disabled_reason WHEN @enabled = 1 THEN NULL ELSE coalesce(disabled_reason, @reason) END ' +
          'WHERE id = @id AND (@subject IS NULL OR subject = @subject)',
      ),
      clearFailing: db.prepare('UPDATE webhook_subscriptions SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL'),
      markFailing: db.prepare('UPDATE webhook_subscriptions SET failing_since = coalesce(failing_since, ?) WHERE id = ?'),
      failingSince: db.prepare('SELECT failing_since FROM webhook_subscriptions WHERE id = ? AND disabled_at IS NULL').pluck(),
      rotateSecret: db.prepare(
        'UPDATE webhook_subscriptions SET previous_secret = secret, previous_secret_expires_at = ?, secret = ? WHERE id = ? AND (? IS NULL OR subject = ?)',
      ),
      failPendingEvents: db.prepare(
        "UPDATE webhook_deliveries SET state = 'given_up', finished_at = ?, last_result = ? WHERE subscription_id = ? AND state = 'pending'",
      ),
      listSubscriptions: db.prepare(`SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions ORDER BY created_at, id`),
      listOwnSubscriptions: db.prepare(
        `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE subject = ? ORDER BY created_at, id`,
      ),
      countSubscriptions: db.prepare('SELECT count(*) FROM webhook_subscriptions WHERE subject = ?').pluck(),
      // Its events go with it (ON DELETE CASCADE).
      deleteSubscription: db.prepare('DELETE FROM webhook_subscriptions WHERE id = ?'),
      deleteOwnSubscription: db.prepare('DELETE FROM webhook_subscriptions WHERE id = ? AND subject = ?'),
      disableSubscription: db.prepare(
        'UPDATE webhook_subscriptions SET disabled_at = ?, disabled_reason = ? WHERE id = ? AND disabled_at IS NULL',
      ),
      anyDue: db.prepare("SELECT 1 FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= ? LIMIT 1").pluck(),
      due: db
        .prepare(
          // CROSS JOIN keeps the outbox's due index as the outer loop (SQLite would otherwise scan the outbox per subscription).
          'SELECT d.id, d.attempts, d.message_id, d.event, d.body, d.trace_parent, d.subscription_id, s.url, s.secret, ' +
            'CASE WHEN s.previous_secret_expires_at > @now THEN s.previous_secret END AS previous_secret FROM webhook_deliveries AS d ' +
            'CROSS JOIN webhook_subscriptions AS s ON s.id = d.subscription_id ' +
            // The claimed rows are skipped inside SQLite: reading them into objects cost more than the query.
            "WHERE d.state = 'pending' AND d.next_attempt_at <= @now AND d.id NOT IN (SELECT value FROM json_each(@claimed)) " +
            'ORDER BY d.next_attempt_at LIMIT @limit',
        )
        .safeIntegers(true),
      // A redeliver asked for during the attempt makes the event due again now, with a new round of retries.
      finish: db.prepare(
        'UPDATE webhook_deliveries SET attempts = CASE WHEN redeliver = 1 THEN 0 ELSE @attempt END, ' +
          "state = CASE WHEN redeliver = 1 THEN 'pending' ELSE @state END, " +
          'finished_at = CASE WHEN redeliver = 1 THEN NULL ELSE @finishedAt END, ' +
          'next_attempt_at = CASE WHEN redeliver = 1 THEN @attemptedAt ELSE @nextAttemptAt END, redeliver = 0, ' +
          "last_result = @result, last_status = @status, last_attempt_at = @attemptedAt WHERE id = @id AND attempts = @attempt - 1 AND state = 'pending'",
      ),
      listDeliveries: db
        .prepare(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE subscription_id = ? AND id < ? ORDER BY id DESC LIMIT ?`)
        .safeIntegers(true),
      findEvent: db.prepare('SELECT id, state FROM webhook_deliveries WHERE subscription_id = ? AND message_id = ?').safeIntegers(true),
      requeue: db.prepare(
        "UPDATE webhook_deliveries SET state = 'pending', attempts = 0, redeliver = 0, next_attempt_at = ?, finished_at = NULL WHERE id = ?",
      ),
      redeliverAfterAttempt: db.prepare('UPDATE webhook_deliveries SET redeliver = 1 WHERE id = ?'),
      recover: db.prepare(
        "UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_at = ?, finished_at = NULL " +
          "WHERE subscription_id = ? AND state = 'given_up' AND created_at >= ?",
      ),
      insertPing: db.prepare(
        'INSERT INTO webhook_deliveries (subscription_id, event, message_id, plant_id, body, next_attempt_at, created_at, trace_parent) ' +
          "SELECT id, 'ping', ?, ?, ?, ?, ?, ? FROM webhook_subscriptions WHERE id = ?",
      ),
      backlog: db.prepare("SELECT count(*) AS pending, min(created_at) AS oldest FROM webhook_deliveries WHERE state = 'pending'"),
      pruneDeliveries: db.prepare(
        "DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries WHERE state <> 'pending' AND finished_at < ? ORDER BY id LIMIT ?)",
      ),
      ping: db.prepare('SELECT 1').pluck(),
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
    }
    this.commitTransaction = db.transaction((writes: Write[]) => {
      // Read under the write lock, so no subscription can appear before this transaction ends:
      // without any, a create writes no event and costs what it did before webhooks.
      this.subscribed = this.statements.anySubscription.get() !== undefined
      return writes.map((write) => write())
    })
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

  /** The plant and its events, inside a group commit's transaction; false when the id exists. */
  private insertPlant(plant: NewPlant, now: number): boolean {
    if (this.statements.insertPlant.run(plant.id, plant.owner, plant.name, plant.tag, now).changes !== 1) return false
    if (this.subscribed) this.statements.insertEvents.run(plant.id, NEW_PLANT.body(plant), now, now, plant.traceParent ?? null, plant.owner)
    return true
  }

  createPlant(plant: NewPlant): Promise<boolean> {
    return this.writes.add(() => this.insertPlant(plant, Date.now())) as Promise<boolean>
  }

  /**
   * Joins the group commit like any create; inside the transaction, a fresh kept outcome of the
   * key is answered again, else the plant is inserted and its outcome kept. Each transaction is
   * atomic on the file, so two processes (WORKERS) with one key cannot both create.
   */
  async createPlantWithKey(plant: NewPlant, key: IdempotencyKey): Promise<KeyedCreate> {
    // A key whose outcome is kept is answered from it, whoever else replays it meanwhile: only a
    // first request still being committed makes another wait (in-flight).
    const kept = await this.run(
      () =>
        this.statements.findKey.get(plant.owner, key.key, key.keptSince.getTime()) as { fingerprint: string; created: number } | undefined,
    )
    if (kept !== undefined) return replay({ fingerprint: kept.fingerprint, created: kept.created === 1 }, key)
    return this.keysInFlight.run(
      plant.owner,
      key.key,
      () =>
        this.writes.add(() => {
          const kept = this.statements.findKey.get(plant.owner, key.key, key.keptSince.getTime()) as
            { fingerprint: string; created: number } | undefined
          if (kept !== undefined) return replay({ fingerprint: kept.fingerprint, created: kept.created === 1 }, key)
          const now = Date.now()
          const created = this.insertPlant(plant, now)
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
        { name: string; tag: string | null } | undefined
      return row === undefined ? null : toPlant(row)
    })
  }

  deletePlant(id: bigint, owner: string | null, traceParent: string | null = null): Promise<boolean> {
    return this.writes.add(() => {
      const deletedOwner = (owner === null ? this.statements.deletePlant.get(id) : this.statements.deleteOwnPlant.get(id, owner)) as
        string | undefined
      if (deletedOwner === undefined) return false
      if (this.subscribed) {
        const now = Date.now()
        this.statements.insertDeletedEvents.run(id, PLANT_DELETED.body({ id }), now, now, traceParent, deletedOwner)
      }
      return true
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

  /** Counted and made in one write of the one writer: concurrent requests cannot pass the limit together. */
  createSubscription(subscription: NewSubscription, limit: number): Promise<Subscription | null> {
    const { id, subject, allPlants, url, events, secret } = subscription
    return this.writes.add(() => {
      if ((this.statements.countSubscriptions.get(subject) as number) >= limit) return null
      const createdAt = Date.now()
      this.statements.insertSubscription.run(id, subject, allPlants ? 1 : 0, url, events.join(' '), secret, createdAt)
      // Creates later in this same transaction see it.
      this.subscribed = true
      return { ...subscription, createdAt: new Date(createdAt), disabledAt: null, disabledReason: null }
    }) as Promise<Subscription | null>
  }

  listSubscriptions(subject: string | null): Promise<Subscription[]> {
    return this.run(() => {
      const rows = (
        subject === null ? this.statements.listSubscriptions.all() : this.statements.listOwnSubscriptions.all(subject)
      ) as SubscriptionRow<number, number>[]
      return rows.map((row) => toSubscription(row, sqliteTime))
    })
  }

  getSubscription(id: string, subject: string | null): Promise<Subscription | null> {
    return this.run(() => {
      const row = this.statements.getSubscription.get(id, subject, subject) as SubscriptionRow<number, number> | undefined
      return row === undefined ? null : toSubscription(row, sqliteTime)
    })
  }

  updateSubscription(id: string, subject: string | null, change: SubscriptionChange): Promise<Subscription | null> {
    return this.writes.add(() => {
      const now = Date.now()
      const updated = this.statements.updateSubscription.run({
        id,
        subject,
        url: change.url ?? null,
        events: change.events?.join(' ') ?? null,
        enabled: change.enabled === undefined ? null : change.enabled ? 1 : 0,
        now,
        reason: DISABLED_BY_REQUEST,
      })
      if (updated.changes !== 1) return null
      if (change.enabled === false) this.statements.failPendingEvents.run(now, DISABLED_BY_REQUEST, id)
      // Writes later in this same transaction see an enabled subscription.
      if (change.enabled === true) this.subscribed = true
      const row = this.statements.getSubscription.get(id, null, null) as SubscriptionRow<number, number>
      return toSubscription(row, sqliteTime)
    }) as Promise<Subscription | null>
  }

  listDeliveries(subscriptionId: string, before: bigint | null, limit: number): Promise<DeliveryRecord[]> {
    return this.run(() => {
      const rows = this.statements.listDeliveries.all(subscriptionId, before ?? INT64_MAX, limit) as DeliveryRow<bigint, bigint>[]
      return rows.map((row) => toDeliveryRecord(row, (time) => new Date(Number(time))))
    })
  }

  /** An event claimed here and not yet recorded is under way: it is sent again once its outcome is written. */
  redeliver(subscriptionId: string, messageId: string): Promise<Redelivery> {
    return this.writes.add(() => {
      const event = this.statements.findEvent.get(subscriptionId, messageId) as { id: bigint; state: string } | undefined
      if (event === undefined) return 'unknown'
      if (event.state === 'pending' && this.claims.has(event.id)) this.statements.redeliverAfterAttempt.run(event.id)
      else this.statements.requeue.run(Date.now(), event.id)
      return 'requeued'
    }) as Promise<Redelivery>
  }

  recoverDeliveries(subscriptionId: string, since: Date): Promise<number> {
    return this.writes.add(() => this.statements.recover.run(Date.now(), subscriptionId, since.getTime()).changes) as Promise<number>
  }

  queuePing(subscriptionId: string, messageId: string, body: string, traceParent: string | null = null): Promise<boolean> {
    return this.writes.add(() => {
      const now = Date.now()
      return this.statements.insertPing.run(messageId, PING_PLANT_ID, body, now, now, traceParent, subscriptionId).changes === 1
    }) as Promise<boolean>
  }

  deleteSubscription(id: string, subject: string | null): Promise<boolean> {
    return this.writes.add(() => {
      const deleted = subject === null ? this.statements.deleteSubscription.run(id) : this.statements.deleteOwnSubscription.run(id, subject)
      return deleted.changes === 1
    }) as Promise<boolean>
  }

  hasDueDeliveries(): Promise<boolean> {
    return this.run(() => this.statements.anyDue.get(Date.now()) !== undefined)
  }

  /**
   * One process delivers a SQLite store's events, so its claims are kept in memory: a claim
   * costs no write (which would dirty old pages of the outbox in the commits of the creates).
   * A process that dies leaves its claimed events due, and they are attempted after a restart.
   */
  claimDeliveries(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    return this.run(() => {
      const now = Date.now()
      for (const [id, until] of this.claims) if (until <= now) this.claims.delete(id)
      const rows = this.statements.due.all({ now, limit, claimed: `[${[...this.claims.keys()].join(',')}]` }) as ClaimRow<bigint>[]
      for (const row of rows) this.claims.set(row.id, now + leaseMs)
      // attempts counts those made before this claim: the claim adds none in memory.
      return rows.map((row) => toClaimedDelivery(row, Number(row.attempts) + 1))
    })
  }

  finishDeliveries(finished: readonly FinishedDelivery[], policy: DisablePolicy): Promise<DisabledSubscription[]> {
    /** The claims given up by this write, until it commits: a redeliver later in its transaction sees the events as no longer under way. */
    const released = new Map<bigint, number>()
    const written = this.writes.add(() => {
      const now = Date.now()
      // The last recorded outcome of each subscription in this batch decides its failing streak.
      const last = new Map<string, FinishedDelivery['outcome']>()
      for (const finishedDelivery of finished) {
        const { claim, outcome } = finishedDelivery
        const done = outcome.kind !== 'retry'
        const recorded = this.statements.finish.run({
          id: claim.id,
          attempt: claim.attempt,
          state: outcome.kind === 'delivered' ? 'delivered' : done ? 'given_up' : 'pending',
          finishedAt: done ? now : null,
          nextAttemptAt: outcome.kind === 'retry' ? now + outcome.afterMs : now,
          result: outcome.result,
          status: finishedDelivery.status,
          attemptedAt: now,
        })
        if (recorded.changes === 1) last.set(claim.subscriptionId, outcome)
        if (!released.has(claim.id)) released.set(claim.id, this.claims.get(claim.id) ?? now)
        this.claims.delete(claim.id)
      }
      const disabled: DisabledSubscription[] = []
      for (const [subscriptionId, outcome] of last) {
        if (outcome.kind === 'delivered') {
          this.statements.clearFailing.run(subscriptionId)
          continue
        }
        this.statements.markFailing.run(now, subscriptionId)
        const since = this.statements.failingSince.get(subscriptionId) as number | null | undefined
        const cause = disableCause(outcome, since === null || since === undefined ? null : new Date(since), now, policy)
        if (cause !== null && this.statements.disableSubscription.run(now, cause.description, subscriptionId).changes === 1) {
          this.statements.failPendingEvents.run(now, cause.description, subscriptionId)
          disabled.push({ id: subscriptionId, ...cause })
        }
      }
      return disabled
    }) as Promise<DisabledSubscription[]>
    // An outcome that could not be written (a full disk) leaves its event claimed until the lease
    // ends, and a retry no sooner than its delay: the receiver is not flooded meanwhile.
    return written.catch((error: unknown) => {
      const now = Date.now()
      for (const { claim, outcome } of finished) {
        const lease = this.claims.get(claim.id) ?? released.get(claim.id) ?? now
        this.claims.set(claim.id, Math.max(lease, outcome.kind === 'retry' ? now + outcome.afterMs : 0))
      }
      throw error
    })
  }

  /** Claims live in this process only: given back, each event is due as it was before its claim. */
  releaseDeliveries(claims: readonly ClaimedDelivery[]): Promise<void> {
    for (const claim of claims) this.claims.delete(claim.id)
    return Promise.resolve()
  }

  rotateSecret(id: string, subject: string | null, secret: string, previousExpiresAt: Date): Promise<boolean> {
    return this.writes.add(
      () => this.statements.rotateSecret.run(previousExpiresAt.getTime(), secret, id, subject, subject).changes === 1,
    ) as Promise<boolean>
  }

  webhookBacklog(): Promise<WebhookBacklog> {
    return this.run(() => {
      const row = this.statements.backlog.get() as { pending: number; oldest: number | null }
      return { pending: row.pending, oldestCreatedAt: row.oldest === null ? null : new Date(row.oldest) }
    })
  }

  pruneDeliveries(before: Date, limit: number): Promise<number> {
    return this.writes.add(() => this.statements.pruneDeliveries.run(before.getTime(), limit).changes) as Promise<number>
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
