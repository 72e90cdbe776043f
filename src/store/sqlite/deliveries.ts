import { INT64_MAX } from '../../api/int64.js'
import { type DeliveryLog, type DeliveryRecord, PING_PLANT_ID, type Redelivery } from '../deliveries.js'
import { DELIVERY_COLUMNS, type DeliveryRow, toDeliveryRecord } from '../shared/rows.js'
import type { SqliteDatabase } from './database.js'
import { eventStatements } from './events.js'

export class SqliteDeliveryLog implements DeliveryLog {
  private readonly statements
  private readonly events

  /** `claims`: the outbox's, the events whose attempt is under way in this process. */
  constructor(
    private readonly database: SqliteDatabase,
    private readonly claims: ReadonlyMap<bigint, number>,
  ) {
    const { db } = database
    this.statements = {
      list: db
        .prepare(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE subscription_id = ? AND id < ? ORDER BY id DESC LIMIT ?`)
        .safeIntegers(true),
      find: db.prepare('SELECT id, state FROM webhook_deliveries WHERE subscription_id = ? AND message_id = ?').safeIntegers(true),
      requeue: db.prepare(
        "UPDATE webhook_deliveries SET state = 'pending', attempts = 0, redeliver = 0, next_attempt_at = ?, finished_at = NULL WHERE id = ?",
      ),
      redeliverAfterAttempt: db.prepare('UPDATE webhook_deliveries SET redeliver = 1 WHERE id = ?'),
      recover: db.prepare(
        "UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_at = ?, finished_at = NULL " +
          "WHERE subscription_id = ? AND state = 'given_up' AND created_at >= ?",
      ),
    }
    this.events = eventStatements(db)
  }

  list(subscriptionId: string, before: bigint | null, limit: number): Promise<DeliveryRecord[]> {
    return this.database.run(() => {
      const rows = this.statements.list.all(subscriptionId, before ?? INT64_MAX, limit) as DeliveryRow<bigint, bigint>[]
      return rows.map((row) => toDeliveryRecord(row, (time) => new Date(Number(time))))
    })
  }

  /** An event claimed here and not yet recorded is under way: it is sent again once its outcome is written. */
  redeliver(subscriptionId: string, messageId: string): Promise<Redelivery> {
    return this.database.write((): Redelivery => {
      const event = this.statements.find.get(subscriptionId, messageId) as { id: bigint; state: string } | undefined
      if (event === undefined) return 'unknown'
      if (event.state === 'pending' && this.claims.has(event.id)) this.statements.redeliverAfterAttempt.run(event.id)
      else this.statements.requeue.run(Date.now(), event.id)
      return 'requeued'
    })
  }

  recover(subscriptionId: string, since: Date): Promise<number> {
    return this.database.write(() => this.statements.recover.run(Date.now(), subscriptionId, since.getTime()).changes)
  }

  queuePing(subscriptionId: string, messageId: string, body: string, traceParent: string | null = null): Promise<boolean> {
    return this.database.write(() => {
      const now = Date.now()
      return this.events.ping.run(messageId, PING_PLANT_ID, body, now, now, traceParent, subscriptionId).changes === 1
    })
  }
}
