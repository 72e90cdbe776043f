import { INT64_MAX } from '../../api/int64.js'
import { type DeliveryLog, type DeliveryRecord, PING_PLANT_ID, type Redelivery } from '../deliveries.js'
import { DELIVERY_COLUMNS, type DeliveryRow, toDeliveryRecord } from '../shared/rows.js'
import { type PostgresDatabase, postgresTime, storable } from './database.js'
import { INSERT_PING } from './events.js'

export class PostgresDeliveryLog implements DeliveryLog {
  constructor(private readonly database: PostgresDatabase) {}

  async list(subscriptionId: string, before: bigint | null, limit: number): Promise<DeliveryRecord[]> {
    const result = await this.database.query<DeliveryRow<Date, string>>(
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
    const result = await this.database.query(
      'redeliver',
      `UPDATE webhook_deliveries SET redeliver = ${underWay}, attempts = CASE WHEN ${underWay} THEN attempts ELSE 0 END, ` +
        `next_attempt_at = CASE WHEN ${underWay} THEN next_attempt_at ELSE now() END, state = 'pending', finished_at = NULL ` +
        'WHERE subscription_id = $1 AND message_id = $2',
      [subscriptionId, messageId],
    )
    return result.rowCount === 1 ? 'requeued' : 'unknown'
  }

  async recover(subscriptionId: string, since: Date): Promise<number> {
    const result = await this.database.query(
      'recover_deliveries',
      "UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_at = now(), finished_at = NULL " +
        "WHERE subscription_id = $1 AND state = 'given_up' AND created_at >= $2",
      [subscriptionId, since],
    )
    return result.rowCount ?? 0
  }

  /** Locked FOR KEY SHARE as a create locks it: a subscription deleted meanwhile gets no ping (false). */
  async queuePing(subscriptionId: string, messageId: string, body: string, traceParent: string | null = null): Promise<boolean> {
    const result = await this.database.query('queue_ping', INSERT_PING, [
      subscriptionId,
      messageId,
      String(PING_PLANT_ID),
      body,
      traceParent,
    ])
    return result.rowCount === 1
  }
}
