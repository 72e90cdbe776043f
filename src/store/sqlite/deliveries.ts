import { INT64_MAX } from '../../api/int64.js'
import { type DeliveryLog, type DeliveryRecord, PING_PLANT_ID, type Recovery, type Redelivery } from '../deliveries.js'
import { requeue } from '../shared/requeue.js'
import { DELIVERY_COLUMNS, type DeliveryRow, toDeliveryRecord } from '../shared/rows.js'
import type { SqliteDatabase } from './database.js'
import { eventStatements } from './events.js'

export class SqliteDeliveryLog implements DeliveryLog {
  private readonly statements
  private readonly events

  constructor(private readonly database: SqliteDatabase) {
    const { db } = database
    this.statements = {
      list: db
        .prepare(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE subscription_id = ? AND id < ? ORDER BY id DESC LIMIT ?`)
        .safeIntegers(true),
      disabled: db.prepare('SELECT disabled_at IS NOT NULL FROM webhook_subscriptions WHERE id = ?').pluck(),
      redeliver: db.prepare(
        `UPDATE webhook_deliveries SET ${requeue('@now')} WHERE subscription_id = @subscription AND message_id = @message`,
      ),
      recover: db.prepare(
        `UPDATE webhook_deliveries SET ${requeue('@now')} WHERE subscription_id = @subscription AND state = 'given_up' AND created_at >= @since`,
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

  /** The claim in the event's row tells whether its attempt is under way, whichever process claimed it. */
  redeliver(subscriptionId: string, messageId: string): Promise<Redelivery> {
    return this.database.write((): Redelivery => {
      const disabled = this.statements.disabled.get(subscriptionId) as number | undefined
      if (disabled === undefined) return 'unknown'
      if (disabled === 1) return 'disabled'
      const requeued = this.statements.redeliver.run({ now: Date.now(), subscription: subscriptionId, message: messageId })
      return requeued.changes === 1 ? 'requeued' : 'unknown'
    })
  }

  recover(subscriptionId: string, since: Date): Promise<Recovery> {
    return this.database.write((): Recovery => {
      if (this.statements.disabled.get(subscriptionId) === 1) return 'disabled'
      return { requeued: this.statements.recover.run({ now: Date.now(), subscription: subscriptionId, since: since.getTime() }).changes }
    })
  }

  queuePing(subscriptionId: string, messageId: string, body: string, traceParent: string | null = null): Promise<boolean> {
    return this.database.write(() => {
      const now = Date.now()
      return this.events.ping.run(messageId, PING_PLANT_ID, body, now, now, traceParent, subscriptionId).changes === 1
    })
  }
}
