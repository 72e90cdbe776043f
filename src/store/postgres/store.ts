import type pg from 'pg'
import { Gauge, Histogram, type Registry } from 'prom-client'
import type { PostgresConfig } from '../../config/config.js'
import { NEW_PLANT, PLANT_DELETED } from '../../api/events.js'
import { disableCause } from '../shared/disable.js'
import { type Pools, isReadOnly, openPools, unavailableOr, withConnection } from './connections.js'
import { GroupCommit } from '../shared/group-commit.js'
import { pendingMigrations } from '../shared/migrations.js'
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
import { KeysInFlight, ownerKey, replay } from '../shared/idempotency.js'
import { SharedTurnReads } from '../shared/shared-reads.js'
import {
  type ClaimedDelivery,
  type DeliveryRecord,
  type DisablePolicy,
  type DisabledSubscription,
  PING_PLANT_ID,
  type Redelivery,
  type DeliveryOutcome,
  EMPTY_PAGE,
  type FinishedDelivery,
  type IdempotencyKey,
  type KeyedCreate,
  type NewPlant,
  type NewToken,
  type Plant,
  type PlantPage,
  type PlantQuery,
  type PlantStore,
  SILENT_STORE_LOG,
  type StoreLog,
  StoreUnavailableError,
  DISABLED_BY_REQUEST,
  type NewSubscription,
  type Subscription,
  type SubscriptionChange,
  type TokenRecord,
  type WebhookBacklog,
} from '../store.js'

/** Keys of the advisory locks that serialise start-up work across instances. */
const MIGRATION_LOCK = 7_250_001
const FIRST_TOKEN_LOCK = 7_250_002

/** The plant queries, one per combination of owner and tag filters, each a named prepared statement. */
function plantSql(byOwner: boolean, byTag: boolean) {
  const variant = `${byOwner ? '_by_owner' : ''}${byTag ? '_by_tag' : ''}`
  // $1 from, $2 to, $3 limit or offset, then owner and tag when filtered on.
  const filters = ['id BETWEEN $1 AND $2']
  if (byOwner) filters.push(`owner = $${filters.length + 3}`)
  if (byTag) filters.push(`tag = $${filters.length + 3}`)
  const where = filters.join(' AND ')
  return {
    // One row with the page's JSON text (no object per plant in the driver or here); the
    // object is written out by hand, as json_build_object would put spaces around colons.
    list: {
      name: `list_plants${variant}`,
      text:
        `SELECT string_agg(plant, ',' ORDER BY id) AS json, count(*)::int AS count, max(id)::text AS last_id FROM (` +
        `SELECT id, '{"name":' || to_json(name)::text || CASE WHEN tag IS NULL THEN '}' ELSE ',"tag":' || to_json(tag)::text || '}' END AS plant ` +
        `FROM plants WHERE ${where} ORDER BY id LIMIT $3) AS page`,
    },
    nthId: { name: `nth_plant_id${variant}`, text: `SELECT id FROM plants WHERE ${where} ORDER BY id LIMIT 1 OFFSET $3` },
  }
}

const plantSqlFor = variantsByFilter(plantSql)

interface PlantTarget {
  id: bigint
  owner: string | null
  traceParent: string | null
}

const idKey = (write: { id: bigint }) => String(write.id)

const FIND_KEY = 'SELECT fingerprint, created FROM idempotency_keys WHERE subject = $1 AND key = $2 AND created_at >= $3'

/** The events of created plants (`c`): one per subscription active now that covers the owner. */
const INSERT_EVENTS = 'INSERT INTO webhook_deliveries (subscription_id, event, plant_id, body, trace_parent)'
const NEW_PLANT_EVENT = `'${NEW_PLANT.name}'`
/**
 * The enabled subscriptions that receive `event` and cover the owner of `c`. Each is locked FOR
 * KEY SHARE, as the events' foreign key would lock it: one deleted since this statement's
 * snapshot is skipped (no event for it, and no foreign key error), and a delete waits for this
 * transaction, then takes the events with it.
 */
const subscriptionsFor = (event: string) =>
  `JOIN webhook_subscriptions s ON s.disabled_at IS NULL AND (s.all_plants OR s.subject = c.owner) AND ${receives('s.events', event)}`
const LOCK_SUBSCRIPTIONS = ' FOR KEY SHARE OF s'
const ACTIVE_SUBSCRIPTIONS = subscriptionsFor(NEW_PLANT.name)
/** The plantDeleted events of the deleted rows `c`; the body is PLANT_DELETED's, written in SQL: an int8's text is exact. */
const DELETED_EVENTS =
  `events AS (${INSERT_EVENTS} SELECT s.id, '${PLANT_DELETED.name}', c.id, '{"id":' || c.id::text || '}', c.trace_parent ` +
  `FROM deleted c ${subscriptionsFor(PLANT_DELETED.name)}${LOCK_SUBSCRIPTIONS}) `

/** For each write, in order, whether the statement changed its id. */
function changedIds(writes: { id: bigint }[], rows: { id: string }[]): boolean[] {
  const changed = new Set(rows.map((row) => row.id))
  return writes.map((write) => changed.has(String(write.id)))
}

const postgresTime = (time: Date) => time

/**
 * Whether a text can be stored: PostgreSQL refuses U+0000 in text. An id holding it names
 * nothing that exists, so a lookup answers "not found" without asking (as SQLite would).
 */
const storable = (...texts: string[]) => texts.every((text) => !text.includes('\u0000'))

/** Above every row id: the first page of a log. */
const INT64_MAX = 2n ** 63n - 1n

/** After the read server failed, reads go to the primary for this long before it is tried again. */
const READ_RETRY_MS = 5_000

export class PostgresStore implements PlantStore {
  private queryDuration: Histogram<'operation' | 'pool'> | null = null
  private readonly keysInFlight = new KeysInFlight()
  private readonly pool: pg.Pool
  private readUnavailableUntil = 0

  private constructor(
    private readonly pools: Pools,
    private readonly preparedStatements: boolean,
    private readonly log: StoreLog,
  ) {
    this.pool = pools.primary
  }

  /**
   * Connects, migrates under an advisory lock (safe when several instances start at once). On a
   * read-only server (an instance pointed at a standby) migrations are left to the primary:
   * reads are served and writes answer 503.
   */
  static async open(config: PostgresConfig, log: StoreLog = SILENT_STORE_LOG): Promise<PostgresStore> {
    const pools = await openPools(config, log)
    const store = new PostgresStore(pools, config.preparedStatements, log)
    try {
      await store.migrate()
    } catch (error) {
      if (!isReadOnly((error as { cause?: unknown }).cause ?? error)) {
        await store.endPools()
        throw error
      }
      log.warn({}, 'the database is read-only (a standby): migrations are left to the primary; writes answer 503 until it takes writes')
    }
    return store
  }

  /** Runs `work` in a transaction of one pooled connection; a database that cannot serve is StoreUnavailableError. */
  private transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return withConnection(
      this.pool,
      async (client) => {
        await client.query('BEGIN')
        const result = await work(client)
        await client.query('COMMIT')
        return result
      },
      (client) => client.query('ROLLBACK'),
    )
  }

  /** A transaction that first waits for the advisory lock `lockKey`: instances take turns. */
  private lockedTransaction<T>(lockKey: number, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [lockKey])
      return work(client)
    })
  }

  private async migrate(): Promise<void> {
    await this.lockedTransaction(MIGRATION_LOCK, async (client) => {
      await client.query('SET LOCAL statement_timeout = 0')
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
      )
      const applied = new Set(
        (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((row) => row.version),
      )
      for (const migration of pendingMigrations('postgres', applied)) {
        await client.query(migration.sql)
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name])
      }
    })
  }

  /**
   * Runs a statement, a named prepared one unless PG_PREPARED_STATEMENTS=false (a transaction
   * pooler has no session to keep it in); `name` is also the operation label of its latency
   * metric. The pool drops a connection whose query failed.
   */
  private async query<R extends pg.QueryResultRow>(
    name: string,
    text: string,
    values: unknown[],
    pool = this.pool,
  ): Promise<pg.QueryResult<R>> {
    const stop = this.queryDuration?.startTimer({ operation: name, pool: pool === this.pool ? 'primary' : 'read' })
    try {
      return await pool.query<R>(this.preparedStatements ? { name, text, values } : { text, values })
    } catch (error) {
      throw unavailableOr(error)
    } finally {
      stop?.()
    }
  }

  /**
   * A read for DATABASE_READ_URL's server when there is one; while it cannot be reached, the
   * primary answers instead, and the read server is tried again after READ_RETRY_MS.
   */
  private async read<R extends pg.QueryResultRow>(name: string, text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    const replica = this.pools.read
    if (replica !== null && Date.now() >= this.readUnavailableUntil) {
      try {
        return await this.query<R>(name, text, values, replica)
      } catch (error) {
        if (!(error instanceof StoreUnavailableError)) throw error
        this.readUnavailableUntil = Date.now() + READ_RETRY_MS
        this.log.warn({ err: error, retryInMs: READ_RETRY_MS }, 'the read database is unavailable; reading from the primary')
      }
    }
    return this.query<R>(name, text, values)
  }

  // The creates, and the deletes, of one turn of the event loop go to the server as one
  // statement each: one round trip, one plan and one commit for all of them. Two writes to one
  // id never share a statement: the second must see the first's outcome. A create writes its
  // plant's events in the same statement, so in the same transaction.
  private readonly creates = new GroupCommit<NewPlant, boolean>(async (plants) => {
    if (plants.length === 1) {
      const [plant] = plants as [NewPlant]
      const result = await this.query<{ id: string }>(
        'create_plant',
        `WITH created AS (INSERT INTO plants (id, owner, name, tag) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING RETURNING id, owner), ` +
          `events AS (${INSERT_EVENTS} SELECT s.id, ${NEW_PLANT_EVENT}, c.id, $5, $6 FROM created c ${ACTIVE_SUBSCRIPTIONS}${LOCK_SUBSCRIPTIONS}) ` +
          'SELECT id FROM created',
        [String(plant.id), plant.owner, plant.name, plant.tag, NEW_PLANT.body(plant), plant.traceParent ?? null],
      )
      return [result.rowCount === 1]
    }
    const result = await this.query<{ id: string }>(
      'create_plants',
      'WITH input AS (SELECT * FROM unnest($1::int8[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS i (id, owner, name, tag, body, trace_parent)), ' +
        'created AS (INSERT INTO plants (id, owner, name, tag) SELECT id, owner, name, tag FROM input ON CONFLICT (id) DO NOTHING RETURNING id, owner), ' +
        `events AS (${INSERT_EVENTS} SELECT s.id, ${NEW_PLANT_EVENT}, c.id, i.body, i.trace_parent FROM created c JOIN input i ON i.id = c.id ${ACTIVE_SUBSCRIPTIONS}${LOCK_SUBSCRIPTIONS}) ` +
        'SELECT id FROM created',
      [
        plants.map((plant) => String(plant.id)),
        plants.map((plant) => plant.owner),
        plants.map((plant) => plant.name),
        plants.map((plant) => plant.tag),
        plants.map((plant) => NEW_PLANT.body(plant)),
        plants.map((plant) => plant.traceParent ?? null),
      ],
    )
    return changedIds(plants, result.rows)
  }, idKey)

  private readonly deletes = new GroupCommit<PlantTarget, boolean>(async (targets) => {
    if (targets.length === 1) {
      const [{ id, owner, traceParent }] = targets as [PlantTarget]
      // A deletion writes its events in the same statement, so in the same transaction.
      const result =
        owner === null
          ? await this.query(
              'delete_plant',
              `WITH deleted AS (DELETE FROM plants WHERE id = $1 RETURNING id, owner, $2::text AS trace_parent), ${DELETED_EVENTS}SELECT id FROM deleted`,
              [String(id), traceParent],
            )
          : await this.query(
              'delete_own_plant',
              `WITH deleted AS (DELETE FROM plants WHERE id = $1 AND owner = $2 RETURNING id, owner, $3::text AS trace_parent), ${DELETED_EVENTS}SELECT id FROM deleted`,
              [String(id), owner, traceParent],
            )
      return [result.rowCount === 1]
    }
    const result = await this.query<{ id: string }>(
      'delete_plants',
      'WITH deleted AS (DELETE FROM plants AS p USING unnest($1::int8[], $2::text[], $3::text[]) AS d (id, owner, trace_parent) ' +
        'WHERE p.id = d.id AND (d.owner IS NULL OR p.owner = d.owner) RETURNING p.id, p.owner, d.trace_parent), ' +
        `${DELETED_EVENTS}SELECT id::text AS id FROM deleted`,
      [targets.map((target) => String(target.id)), targets.map((target) => target.owner), targets.map((target) => target.traceParent)],
    )
    return changedIds(targets, result.rows)
  }, idKey)

  createPlant(plant: NewPlant): Promise<boolean> {
    return this.creates.add(plant)
  }

  /**
   * One transaction per keyed create, under an advisory lock on (owner, key) taken without
   * waiting: when another instance holds it, that request is still in flight. Under the lock,
   * reading the kept outcome and then writing is safe across instances.
   */
  async createPlantWithKey(plant: NewPlant, key: IdempotencyKey): Promise<KeyedCreate> {
    // A key whose outcome is kept is answered from it without the lock, so replays that overlap
    // each other all get it: only a first request still being committed is in flight.
    const kept = await this.query<{ fingerprint: string; created: boolean }>('find_idempotency_key', FIND_KEY, [
      plant.owner,
      key.key,
      key.keptSince,
    ])
    if (kept.rows[0] !== undefined) return replay(kept.rows[0], key)
    return this.keysInFlight.run(plant.owner, key.key, () =>
      this.transaction(async (client): Promise<KeyedCreate> => {
        const lock = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked', [
          ownerKey(plant.owner, key.key),
        ])
        if (lock.rows[0]?.locked !== true) return { outcome: 'in-flight' }
        const kept = await client.query<{ fingerprint: string; created: boolean }>(FIND_KEY, [plant.owner, key.key, key.keptSince])
        const row = kept.rows[0]
        if (row !== undefined) return replay(row, key)
        const inserted = await client.query(
          'INSERT INTO plants (id, owner, name, tag) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING',
          [String(plant.id), plant.owner, plant.name, plant.tag],
        )
        const created = inserted.rowCount === 1
        if (created) {
          await client.query(
            `${INSERT_EVENTS} SELECT s.id, ${NEW_PLANT_EVENT}, $1, $2, $4 FROM (SELECT $3::text AS owner) c ${ACTIVE_SUBSCRIPTIONS}${LOCK_SUBSCRIPTIONS}`,
            [String(plant.id), NEW_PLANT.body(plant), plant.owner, plant.traceParent ?? null],
          )
        }
        await client.query(
          'INSERT INTO idempotency_keys (subject, key, fingerprint, created) VALUES ($1, $2, $3, $4) ' +
            'ON CONFLICT (subject, key) DO UPDATE SET fingerprint = excluded.fingerprint, created = excluded.created, created_at = now()',
          [plant.owner, key.key, key.fingerprint, created],
        )
        return { outcome: created ? 'created' : 'exists', replayed: false }
      }),
    )
  }

  async pruneIdempotencyKeys(before: Date, limit: number): Promise<number> {
    const result = await this.query(
      'prune_idempotency_keys',
      'DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE created_at < $1 LIMIT $2)',
      [before, limit],
    )
    return result.rowCount ?? 0
  }

  private plantValues(query: PlantQuery, range: { from: bigint; to: bigint }, count: number): unknown[] {
    const values: unknown[] = [String(range.from), String(range.to), count]
    if (query.owner !== null) values.push(query.owner)
    if (query.tag !== null) values.push(query.tag)
    return values
  }

  // Many clients asking for the same page at once (polling) cost the server one query a turn.
  private readonly pageReads = new SharedTurnReads<PlantPage>()

  listPlants(query: PlantQuery, limit: number): Promise<PlantPage> {
    return this.pageReads.read(pageKey(query, limit), () => this.readPage(query, limit))
  }

  private async readPage(query: PlantQuery, limit: number): Promise<PlantPage> {
    const range = idRange(query)
    if (range === null || limit <= 0) return EMPTY_PAGE
    const { name, text } = plantSqlFor(query).list
    const result = await this.read<{ json: string | null; count: number; last_id: string | null }>(
      name,
      text,
      this.plantValues(query, range, limit),
    )
    const page = result.rows[0]
    if (page === undefined || page.count === 0) return EMPTY_PAGE
    return { json: page.json ?? '', count: page.count, lastId: page.last_id === null ? null : BigInt(page.last_id) }
  }

  async nthPlantId(query: PlantQuery, n: number): Promise<bigint | null> {
    const range = idRange(query)
    if (range === null || n <= 0) return null
    const { name, text } = plantSqlFor(query).nthId
    const result = await this.read<{ id: string }>(name, text, this.plantValues(query, range, n - 1))
    const row = result.rows[0]
    return row === undefined ? null : BigInt(row.id)
  }

  async getPlant(id: bigint, owner: string | null): Promise<Plant | null> {
    const result =
      owner === null
        ? await this.read<{ name: string; tag: string | null }>('get_plant', 'SELECT name, tag FROM plants WHERE id = $1', [String(id)])
        : await this.read<{ name: string; tag: string | null }>(
            'get_own_plant',
            'SELECT name, tag FROM plants WHERE id = $1 AND owner = $2',
            [String(id), owner],
          )
    const row = result.rows[0]
    return row === undefined ? null : toPlant(row)
  }

  deletePlant(id: bigint, owner: string | null, traceParent: string | null = null): Promise<boolean> {
    return this.deletes.add({ id, owner, traceParent })
  }

  private tokenValues(token: NewToken): unknown[] {
    return [token.hash, token.subject, token.scopes.join(' '), token.name, token.expiresAt]
  }

  async createToken(token: NewToken): Promise<number> {
    const result = await this.query<{ id: string }>(
      'create_token',
      'INSERT INTO tokens (hash, subject, scopes, name, expires_at) VALUES ($1, $2, $3, $4, $5) RETURNING id',
      this.tokenValues(token),
    )
    return Number(result.rows[0]?.id)
  }

  async createFirstToken(token: NewToken): Promise<number | null> {
    // Under the lock, so that of several instances starting on an empty database only one makes it.
    return this.lockedTransaction(FIRST_TOKEN_LOCK, async (client) => {
      const result = await client.query<{ id: string }>(
        'INSERT INTO tokens (hash, subject, scopes, name, expires_at) SELECT $1, $2, $3, $4, $5 WHERE NOT EXISTS (SELECT 1 FROM tokens) RETURNING id',
        this.tokenValues(token),
      )
      const row = result.rows[0]
      return row === undefined ? null : Number(row.id)
    })
  }

  async findTokenByHash(hash: string): Promise<TokenRecord | null> {
    const result = await this.query<TokenRow<Date>>('find_token', `SELECT ${TOKEN_COLUMNS} FROM tokens WHERE hash = $1`, [hash])
    const row = result.rows[0]
    return row === undefined ? null : toTokenRecord(row, postgresTime)
  }

  async listTokens(): Promise<TokenRecord[]> {
    const result = await this.query<TokenRow<Date>>('list_tokens', `SELECT ${TOKEN_COLUMNS} FROM tokens ORDER BY id`, [])
    return result.rows.map((row) => toTokenRecord(row, postgresTime))
  }

  async revokeToken(id: number): Promise<boolean> {
    const result = await this.query('revoke_token', 'UPDATE tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [id])
    return result.rowCount === 1
  }

  /** Under a transaction lock on the subject: instances count and insert one request at a time. */
  createSubscription(subscription: NewSubscription, limit: number): Promise<Subscription | null> {
    const { id, subject, allPlants, url, events, secret } = subscription
    return this.transaction(async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('webhook_subscriptions ' || $1, 0))", [subject])
      const counted = await client.query<{ count: number }>('SELECT count(*)::int AS count FROM webhook_subscriptions WHERE subject = $1', [
        subject,
      ])
      if ((counted.rows[0]?.count ?? 0) >= limit) return null
      const made = await client.query<SubscriptionRow<Date, boolean>>(
        `INSERT INTO webhook_subscriptions (id, subject, all_plants, url, events, secret) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${SUBSCRIPTION_COLUMNS}`,
        [id, subject, allPlants, url, events.join(' '), secret],
      )
      return toSubscription(made.rows[0] as SubscriptionRow<Date, boolean>, postgresTime)
    })
  }

  async getSubscription(id: string, subject: string | null): Promise<Subscription | null> {
    if (!storable(id)) return null
    const result = await this.query<SubscriptionRow<Date, boolean>>(
      'get_subscription',
      `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE id = $1 AND ($2::text IS NULL OR subject = $2)`,
      [id, subject],
    )
    const row = result.rows[0]
    return row === undefined ? null : toSubscription(row, postgresTime)
  }

  updateSubscription(id: string, subject: string | null, change: SubscriptionChange): Promise<Subscription | null> {
    if (!storable(id)) return Promise.resolve(null)
    return this.transaction(async (client) => {
      const updated = await client.query<SubscriptionRow<Date, boolean>>(
        'UPDATE webhook_subscriptions SET url = coalesce($3, url), events = coalesce($4, events), ' +
          'disabled_at = CASE WHEN $5::boolean IS NULL THEN disabled_at WHEN $5 THEN NULL ELSE coalesce(disabled_at, now()) END, ' +
          'disabled_reason = CASE WHEN $5::boolean IS NULL THEN disabled_reason WHEN $5 THEN NULL ELSE coalesce(disabled_reason, $6) END ' +
          `WHERE id = $1 AND ($2::text IS NULL OR subject = $2) RETURNING ${SUBSCRIPTION_COLUMNS}`,
        [id, subject, change.url ?? null, change.events?.join(' ') ?? null, change.enabled ?? null, DISABLED_BY_REQUEST],
      )
      const row = updated.rows[0]
      if (row === undefined) return null
      if (change.enabled === false) {
        await client.query(
          "UPDATE webhook_deliveries SET state = 'given_up', finished_at = now(), last_result = $2 WHERE subscription_id = $1 AND state = 'pending'",
          [id, DISABLED_BY_REQUEST],
        )
      }
      return toSubscription(row, postgresTime)
    })
  }

  async listSubscriptions(subject: string | null): Promise<Subscription[]> {
    const result =
      subject === null
        ? await this.query<SubscriptionRow<Date, boolean>>(
            'list_subscriptions',
            `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions ORDER BY created_at, id`,
            [],
          )
        : await this.query<SubscriptionRow<Date, boolean>>(
            'list_own_subscriptions',
            `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE subject = $1 ORDER BY created_at, id`,
            [subject],
          )
    return result.rows.map((row) => toSubscription(row, postgresTime))
  }

  /** Its events go with it (ON DELETE CASCADE), once the writes holding it FOR KEY SHARE have committed. */
  async deleteSubscription(id: string, subject: string | null): Promise<boolean> {
    if (!storable(id)) return false
    const deleted = await this.query(
      'delete_subscription',
      'DELETE FROM webhook_subscriptions WHERE id = $1 AND ($2::text IS NULL OR subject = $2)',
      [id, subject],
    )
    return deleted.rowCount === 1
  }

  async hasDueDeliveries(): Promise<boolean> {
    const result = await this.query(
      'any_due_delivery',
      "SELECT 1 FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= now() LIMIT 1",
      [],
    )
    return result.rowCount === 1
  }

  /** Rows another instance is claiming are skipped, not waited for: instances share the work. */
  async claimDeliveries(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const result = await this.query<ClaimRow<string>>(
      'claim_deliveries',
      // The locking read is a CTE so that it runs once: as an IN subquery the planner may run it again and claim more.
      // A claim also clears a redeliver asked for during an attempt since cut off: this attempt is the one more.
      "WITH due AS (SELECT id FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= now() ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED), " +
        'lease AS (SELECT now() + make_interval(secs => $2::float8 / 1000) AS until) ' +
        'UPDATE webhook_deliveries AS d SET attempts = d.attempts + 1, next_attempt_at = lease.until, leased_until = lease.until, redeliver = false ' +
        'FROM due, lease, webhook_subscriptions AS s WHERE d.id = due.id AND s.id = d.subscription_id ' +
        'RETURNING d.id::text AS id, d.attempts, d.message_id, d.event, d.body, d.trace_parent, d.subscription_id, s.url, s.secret, ' +
        'CASE WHEN s.previous_secret_expires_at > now() THEN s.previous_secret END AS previous_secret',
      [limit, leaseMs],
    )
    // The claim's UPDATE has counted this attempt already.
    return result.rows.map((row) => toClaimedDelivery(row, Number(row.attempts)))
  }

  /** One statement for the outcomes, fenced by attempt; a 410 also disables its subscription, in the same transaction. */
  finishDeliveries(finished: readonly FinishedDelivery[], policy: DisablePolicy): Promise<DisabledSubscription[]> {
    const state = (outcome: DeliveryOutcome) =>
      outcome.kind === 'delivered' ? 'delivered' : outcome.kind === 'retry' ? 'pending' : 'given_up'
    return this.transaction(async (client) => {
      const recorded = await client.query<{ id: string }>(
        // A redeliver asked for during the attempt makes the event due again now, with a new round of retries.
        "UPDATE webhook_deliveries AS d SET state = CASE WHEN d.redeliver THEN 'pending' ELSE u.state END, " +
          'attempts = CASE WHEN d.redeliver THEN 0 ELSE d.attempts END, redeliver = false, leased_until = NULL, ' +
          'last_result = u.result, last_status = u.status, last_attempt_at = now(), ' +
          "finished_at = CASE WHEN d.redeliver OR u.state = 'pending' THEN NULL ELSE now() END, " +
          "next_attempt_at = CASE WHEN d.redeliver THEN now() WHEN u.state = 'pending' THEN now() + make_interval(secs => u.after_ms / 1000) ELSE d.next_attempt_at END " +
          'FROM unnest($1::int8[], $2::int[], $3::text[], $4::float8[], $5::text[], $6::int[]) AS u (id, attempt, state, after_ms, result, status) ' +
          "WHERE d.id = u.id AND d.attempts = u.attempt AND d.state = 'pending' RETURNING d.id::text AS id",
        [
          finished.map(({ claim }) => String(claim.id)),
          finished.map(({ claim }) => claim.attempt),
          finished.map(({ outcome }) => state(outcome)),
          finished.map(({ outcome }) => (outcome.kind === 'retry' ? outcome.afterMs : 0)),
          finished.map(({ outcome }) => outcome.result),
          finished.map(({ status }) => status),
        ],
      )
      const ids = new Set(recorded.rows.map((row) => row.id))
      // The last recorded outcome of each subscription in this batch decides its failing streak.
      const last = new Map<string, DeliveryOutcome>()
      for (const { claim, outcome } of finished) if (ids.has(String(claim.id))) last.set(claim.subscriptionId, outcome)
      const disabled: DisabledSubscription[] = []
      for (const [subscriptionId, outcome] of last) {
        if (outcome.kind === 'delivered') {
          await client.query('UPDATE webhook_subscriptions SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL', [
            subscriptionId,
          ])
          continue
        }
        const streak = await client.query<{ failing_since: Date; now: Date }>(
          'UPDATE webhook_subscriptions SET failing_since = coalesce(failing_since, now()) WHERE id = $1 AND disabled_at IS NULL ' +
            'RETURNING failing_since, now() AS now',
          [subscriptionId],
        )
        const row = streak.rows[0]
        if (row === undefined) continue
        const cause = disableCause(outcome, row.failing_since, row.now.getTime(), policy)
        if (cause === null) continue
        await client.query(
          'UPDATE webhook_subscriptions SET disabled_at = now(), disabled_reason = $2 WHERE id = $1 AND disabled_at IS NULL',
          [subscriptionId, cause.description],
        )
        await client.query(
          "UPDATE webhook_deliveries SET state = 'given_up', finished_at = now(), last_result = $2 WHERE subscription_id = $1 AND state = 'pending'",
          [subscriptionId, cause.description],
        )
        disabled.push({ id: subscriptionId, ...cause })
      }
      return disabled
    })
  }

  /** The claim's count is taken back, fenced by it as an outcome is: a claim taken over since stays. */
  async releaseDeliveries(claims: readonly ClaimedDelivery[]): Promise<void> {
    if (claims.length === 0) return
    await this.query(
      'release_deliveries',
      'UPDATE webhook_deliveries AS d SET attempts = d.attempts - 1, next_attempt_at = now(), leased_until = NULL, redeliver = false ' +
        "FROM unnest($1::int8[], $2::int[]) AS u (id, attempt) WHERE d.id = u.id AND d.attempts = u.attempt AND d.state = 'pending'",
      [claims.map((claim) => String(claim.id)), claims.map((claim) => claim.attempt)],
    )
  }

  async rotateSecret(id: string, subject: string | null, secret: string, previousExpiresAt: Date): Promise<boolean> {
    if (!storable(id)) return false
    const result = await this.query(
      'rotate_secret',
      'UPDATE webhook_subscriptions SET previous_secret = secret, previous_secret_expires_at = $3, secret = $4 ' +
        'WHERE id = $1 AND ($2::text IS NULL OR subject = $2)',
      [id, subject, previousExpiresAt, secret],
    )
    return result.rowCount === 1
  }

  async listDeliveries(subscriptionId: string, before: bigint | null, limit: number): Promise<DeliveryRecord[]> {
    const result = await this.query<DeliveryRow<Date, string>>(
      'list_deliveries',
      `SELECT ${DELIVERY_COLUMNS.replace('id, ', 'id::text AS id, ').replace('plant_id', 'plant_id::text AS plant_id')} FROM webhook_deliveries ` +
        // The table's id, not the output column of the same name, which is text.
        'WHERE subscription_id = $1 AND webhook_deliveries.id < $2 ORDER BY webhook_deliveries.id DESC LIMIT $3',
      [subscriptionId, String(before ?? INT64_MAX), limit],
    )
    return result.rows.map((row) => toDeliveryRecord(row, postgresTime))
  }

  /**
   * One statement: an event whose attempt is under way (leased) is marked to be sent once more
   * when that attempt's outcome is recorded; any other is due now, with a new round of retries.
   */
  async redeliver(subscriptionId: string, messageId: string): Promise<Redelivery> {
    if (!storable(subscriptionId, messageId)) return 'unknown'
    const underWay = "(state = 'pending' AND coalesce(leased_until > now(), false))"
    const result = await this.query(
      'redeliver',
      `UPDATE webhook_deliveries SET redeliver = ${underWay}, attempts = CASE WHEN ${underWay} THEN attempts ELSE 0 END, ` +
        `next_attempt_at = CASE WHEN ${underWay} THEN next_attempt_at ELSE now() END, state = 'pending', finished_at = NULL ` +
        'WHERE subscription_id = $1 AND message_id = $2',
      [subscriptionId, messageId],
    )
    return result.rowCount === 1 ? 'requeued' : 'unknown'
  }

  async recoverDeliveries(subscriptionId: string, since: Date): Promise<number> {
    const result = await this.query(
      'recover_deliveries',
      "UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_at = now(), finished_at = NULL " +
        "WHERE subscription_id = $1 AND state = 'given_up' AND created_at >= $2",
      [subscriptionId, since],
    )
    return result.rowCount ?? 0
  }

  /** Locked FOR KEY SHARE as a create locks it: a subscription deleted meanwhile gets no ping (false). */
  async queuePing(subscriptionId: string, messageId: string, body: string, traceParent: string | null = null): Promise<boolean> {
    const result = await this.query(
      'queue_ping',
      'INSERT INTO webhook_deliveries (subscription_id, event, message_id, plant_id, body, trace_parent) ' +
        "SELECT id, 'ping', $2, $3, $4, $5 FROM webhook_subscriptions WHERE id = $1 FOR KEY SHARE",
      [subscriptionId, messageId, String(PING_PLANT_ID), body, traceParent],
    )
    return result.rowCount === 1
  }

  async webhookBacklog(): Promise<WebhookBacklog> {
    const result = await this.query<{ pending: number; oldest: Date | null }>(
      'webhook_backlog',
      "SELECT count(*)::int AS pending, min(created_at) AS oldest FROM webhook_deliveries WHERE state = 'pending'",
      [],
    )
    const row = result.rows[0]
    return { pending: row?.pending ?? 0, oldestCreatedAt: row?.oldest ?? null }
  }

  async pruneDeliveries(before: Date, limit: number): Promise<number> {
    const result = await this.query(
      'prune_deliveries',
      "DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries WHERE state <> 'pending' AND finished_at < $1 ORDER BY id LIMIT $2)",
      [before, limit],
    )
    return result.rowCount ?? 0
  }

  /** Ready only while a writable primary answers: a standby serves reads but no write. */
  async ping(): Promise<void> {
    const result = await this.query<{ standby: boolean }>('ping', 'SELECT pg_is_in_recovery() AS standby', [])
    if (result.rows[0]?.standby !== false)
      throw new StoreUnavailableError('the database is a standby (read-only): no writable primary answers')
  }

  /** Pool use and query latency by pool (`primary`, and `read` with DATABASE_READ_URL), for /metrics. */
  registerMetrics(registry: Registry): void {
    const pools = Object.entries({ primary: this.pools.primary, read: this.pools.read }).filter(
      (entry): entry is [string, pg.Pool] => entry[1] !== null,
    )
    const poolGauge = (name: string, help: string, read: (pool: pg.Pool) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['pool'],
        registers: [registry],
        collect() {
          for (const [label, pool] of pools) this.set({ pool: label }, read(pool))
        },
      })
    poolGauge('db_pool_connections', 'Connections the pool holds, busy or idle', (pool) => pool.totalCount)
    poolGauge('db_pool_idle_connections', 'Connections of the pool waiting for work', (pool) => pool.idleCount)
    poolGauge('db_pool_waiting_requests', 'Queries waiting for a free connection', (pool) => pool.waitingCount)
    this.queryDuration = new Histogram({
      name: 'db_query_duration_seconds',
      help: 'Time of each database query, by operation and pool, including the wait for a connection',
      labelNames: ['operation', 'pool'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    })
  }

  private async endPools(): Promise<void> {
    await Promise.all([this.pools.primary.end(), this.pools.read?.end()])
  }

  async close(): Promise<void> {
    await Promise.all([this.creates.flush(), this.deletes.flush()])
    await this.endPools()
  }
}
