import { SUBSCRIPTION_COLUMNS, type SubscriptionRow, toSubscription } from '../shared/rows.js'
import {
  DISABLED_BY_REQUEST,
  type NewSubscription,
  type Subscription,
  type SubscriptionChange,
  type SubscriptionRecords,
} from '../subscriptions.js'
import { type PostgresDatabase, postgresTime, storable } from './database.js'

type Row = SubscriptionRow<Date, boolean>

/** SQL that fails subscription $1's pending events (it was disabled), with the reason $2 as their last result. */
export const FAIL_PENDING_EVENTS =
  "UPDATE webhook_deliveries SET state = 'given_up', finished_at = now(), last_result = $2 WHERE subscription_id = $1 AND state = 'pending'"

export class PostgresSubscriptions implements SubscriptionRecords {
  constructor(private readonly database: PostgresDatabase) {}

  /** Under a transaction lock on the subject: instances count and insert one request at a time. */
  create(subscription: NewSubscription, limit: number): Promise<Subscription | null> {
    const { id, subject, allPlants, url, events, secret } = subscription
    return this.database.transaction(async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('webhook_subscriptions ' || $1, 0))", [subject])
      const counted = await client.query<{ count: number }>('SELECT count(*)::int AS count FROM webhook_subscriptions WHERE subject = $1', [
        subject,
      ])
      if ((counted.rows[0]?.count ?? 0) >= limit) return null
      const made = await client.query<Row>(
        `INSERT INTO webhook_subscriptions (id, subject, all_plants, url, events, secret) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${SUBSCRIPTION_COLUMNS}`,
        [id, subject, allPlants, url, events.join(' '), secret],
      )
      return toSubscription(made.rows[0] as Row, postgresTime)
    })
  }

  async get(id: string, subject: string | null): Promise<Subscription | null> {
    if (!storable(id)) return null
    const result = await this.database.query<Row>(
      'get_subscription',
      `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE id = $1 AND ($2::text IS NULL OR subject = $2)`,
      [id, subject],
    )
    const row = result.rows[0]
    return row === undefined ? null : toSubscription(row, postgresTime)
  }

  update(id: string, subject: string | null, change: SubscriptionChange): Promise<Subscription | null> {
    if (!storable(id)) return Promise.resolve(null)
    return this.database.transaction(async (client) => {
      // FOR UPDATE first (the one lock order: the subscription, then its events) waits for the
      // writes that hold it FOR KEY SHARE (a create writing its event): the events they wrote are
      // failed below, and a write after it sees the change.
      await client.query('SELECT 1 FROM webhook_subscriptions WHERE id = $1 FOR UPDATE', [id])
      const updated = await client.query<Row>(
        'UPDATE webhook_subscriptions SET url = coalesce($3, url), events = coalesce($4, events), ' +
          'disabled_at = CASE WHEN $5::boolean IS NULL THEN disabled_at WHEN $5 THEN NULL ELSE coalesce(disabled_at, now()) END, ' +
          'disabled_reason = CASE WHEN $5::boolean IS NULL THEN disabled_reason WHEN $5 THEN NULL ELSE coalesce(disabled_reason, $6) END ' +
          `WHERE id = $1 AND ($2::text IS NULL OR subject = $2) RETURNING ${SUBSCRIPTION_COLUMNS}`,
        [id, subject, change.url ?? null, change.events?.join(' ') ?? null, change.enabled ?? null, DISABLED_BY_REQUEST],
      )
      const row = updated.rows[0]
      if (row === undefined) return null
      if (change.enabled === false) await client.query(FAIL_PENDING_EVENTS, [id, DISABLED_BY_REQUEST])
      return toSubscription(row, postgresTime)
    })
  }

  async list(subject: string | null): Promise<Subscription[]> {
    const result =
      subject === null
        ? await this.database.query<Row>(
            'list_subscriptions',
            `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions ORDER BY created_at, id`,
            [],
          )
        : await this.database.query<Row>(
            'list_own_subscriptions',
            `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE subject = $1 ORDER BY created_at, id`,
            [subject],
          )
    return result.rows.map((row) => toSubscription(row, postgresTime))
  }

  /** Its events go with it (ON DELETE CASCADE), once the writes holding it FOR KEY SHARE have committed. */
  async delete(id: string, subject: string | null): Promise<boolean> {
    if (!storable(id)) return false
    const deleted = await this.database.query(
      'delete_subscription',
      'DELETE FROM webhook_subscriptions WHERE id = $1 AND ($2::text IS NULL OR subject = $2)',
      [id, subject],
    )
    return deleted.rowCount === 1
  }

  async rotateSecret(id: string, subject: string | null, secret: string, previousExpiresAt: Date): Promise<boolean> {
    if (!storable(id)) return false
    const result = await this.database.query(
      'rotate_secret',
      'UPDATE webhook_subscriptions SET previous_secret = secret, previous_secret_expires_at = $3, secret = $4 ' +
        'WHERE id = $1 AND ($2::text IS NULL OR subject = $2)',
      [id, subject, previousExpiresAt, secret],
    )
    return result.rowCount === 1
  }

  /**
   * Each replacement names the value it replaces: when two instances start at once, the second
   * waits on the first's row lock, then finds the value changed and writes nothing. Rows are
   * taken in id order, so two of these never deadlock.
   */
  sealKept(seal: (kept: string) => string | null): Promise<number> {
    return this.database.transaction(async (client) => {
      const kept = await client.query<{ id: string; secret: string; previous_secret: string | null }>(
        'SELECT id, secret, previous_secret FROM webhook_subscriptions ORDER BY id',
      )
      let replaced = 0
      for (const row of kept.rows) {
        const secret = seal(row.secret)
        if (secret !== null) {
          const result = await client.query('UPDATE webhook_subscriptions SET secret = $2 WHERE id = $1 AND secret = $3', [
            row.id,
            secret,
            row.secret,
          ])
          replaced += result.rowCount ?? 0
        }
        const previous = row.previous_secret === null ? null : seal(row.previous_secret)
        if (previous !== null) {
          const result = await client.query(
            'UPDATE webhook_subscriptions SET previous_secret = $2 WHERE id = $1 AND previous_secret = $3',
            [row.id, previous, row.previous_secret],
          )
          replaced += result.rowCount ?? 0
        }
      }
      return replaced
    })
  }
}
