import { SUBSCRIPTION_COLUMNS, type SubscriptionRow, toSubscription } from '../shared/rows.js'
import {
  DISABLED_BY_REQUEST,
  type NewSubscription,
  type Subscription,
  type SubscriptionChange,
  type SubscriptionRecords,
} from '../subscriptions.js'
import type { SqliteDatabase } from './database.js'

const sqliteTime = (milliseconds: number) => new Date(milliseconds)

interface KeptSecrets {
  id: string
  secret: string
  previous_secret: string | null
}

/** SQL that fails a subscription's pending events (it was disabled), with the reason as their last result. */
export const FAIL_PENDING_EVENTS =
  "UPDATE webhook_deliveries SET state = 'given_up', finished_at = ?, last_result = ? WHERE subscription_id = ? AND state = 'pending'"

export class SqliteSubscriptions implements SubscriptionRecords {
  private readonly statements

  constructor(private readonly database: SqliteDatabase) {
    const { db } = database
    this.statements = {
      insert: db.prepare(
        'INSERT INTO webhook_subscriptions (id, subject, all_plants, url, events, secret, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      get: db.prepare(`SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE id = ? AND (? IS NULL OR subject = ?)`),
      update: db.prepare(
        'UPDATE webhook_subscriptions SET url = coalesce(@url, url), events = coalesce(@events, events), ' +
          'disabled_at = CASE WHEN @enabled IS NULL THEN disabled_at WHEN @enabled = 1 THEN NULL ELSE coalesce(disabled_at, @now) END, ' +
          'disabled_reason = CASE WHEN @enabled IS NULL THEN disabled_reason WHEN @enabled = 1 THEN NULL ELSE coalesce(disabled_reason, @reason) END ' +
          'WHERE id = @id AND (@subject IS NULL OR subject = @subject)',
      ),
      rotateSecret: db.prepare(
        'UPDATE webhook_subscriptions SET previous_secret = secret, previous_secret_expires_at = ?, secret = ? WHERE id = ? AND (? IS NULL OR subject = ?)',
      ),
      failPendingEvents: db.prepare(FAIL_PENDING_EVENTS),
      keptSecrets: db.prepare('SELECT id, secret, previous_secret FROM webhook_subscriptions ORDER BY id'),
      replaceSecret: db.prepare('UPDATE webhook_subscriptions SET secret = ? WHERE id = ? AND secret = ?'),
      replacePreviousSecret: db.prepare('UPDATE webhook_subscriptions SET previous_secret = ? WHERE id = ? AND previous_secret = ?'),
      list: db.prepare(`SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions ORDER BY created_at, id`),
      listOwn: db.prepare(`SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE subject = ? ORDER BY created_at, id`),
      count: db.prepare('SELECT count(*) FROM webhook_subscriptions WHERE subject = ?').pluck(),
      // Its events go with it (ON DELETE CASCADE).
      delete: db.prepare('DELETE FROM webhook_subscriptions WHERE id = ?'),
      deleteOwn: db.prepare('DELETE FROM webhook_subscriptions WHERE id = ? AND subject = ?'),
    }
  }

  /** Counted and made in one write of the one writer: concurrent requests cannot pass the limit together. */
  create(subscription: NewSubscription, limit: number): Promise<Subscription | null> {
    const { id, subject, allPlants, url, events, secret } = subscription
    return this.database.write((): Subscription | null => {
      if ((this.statements.count.get(subject) as number) >= limit) return null
      const createdAt = Date.now()
      this.statements.insert.run(id, subject, allPlants ? 1 : 0, url, events.join(' '), secret, createdAt)
      // Creates later in this same transaction see it.
      this.database.subscribed = true
      return { ...subscription, createdAt: new Date(createdAt), disabledAt: null, disabledReason: null }
    })
  }

  list(subject: string | null): Promise<Subscription[]> {
    return this.database.run(() => {
      const rows = (subject === null ? this.statements.list.all() : this.statements.listOwn.all(subject)) as SubscriptionRow<
        number,
        number
      >[]
      return rows.map((row) => toSubscription(row, sqliteTime))
    })
  }

  get(id: string, subject: string | null): Promise<Subscription | null> {
    return this.database.run(() => {
      const row = this.statements.get.get(id, subject, subject) as SubscriptionRow<number, number> | undefined
      return row === undefined ? null : toSubscription(row, sqliteTime)
    })
  }

  update(id: string, subject: string | null, change: SubscriptionChange): Promise<Subscription | null> {
    return this.database.write(() => {
      const now = Date.now()
      const updated = this.statements.update.run({
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
      if (change.enabled === true) this.database.subscribed = true
      const row = this.statements.get.get(id, null, null) as SubscriptionRow<number, number>
      return toSubscription(row, sqliteTime)
    })
  }

  delete(id: string, subject: string | null): Promise<boolean> {
    return this.database.write(() => {
      const deleted = subject === null ? this.statements.delete.run(id) : this.statements.deleteOwn.run(id, subject)
      return deleted.changes === 1
    })
  }

  rotateSecret(id: string, subject: string | null, secret: string, previousExpiresAt: Date): Promise<boolean> {
    return this.database.write(
      () => this.statements.rotateSecret.run(previousExpiresAt.getTime(), secret, id, subject, subject).changes === 1,
    )
  }

  sealKept(seal: (kept: string) => string | null): Promise<number> {
    return this.database.write(() => {
      let replaced = 0
      for (const row of this.statements.keptSecrets.all() as KeptSecrets[]) {
        const secret = seal(row.secret)
        if (secret !== null) replaced += this.statements.replaceSecret.run(secret, row.id, row.secret).changes
        const previous = row.previous_secret === null ? null : seal(row.previous_secret)
        if (previous !== null) replaced += this.statements.replacePreviousSecret.run(previous, row.id, row.previous_secret).changes
      }
      return replaced
    })
  }
}
