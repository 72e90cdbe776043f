import { INT64_MAX } from '../../api/int64.js'
import type pg from 'pg'
import { type DeliveryLog, type DeliveryRecord, PING_PLANT_ID, type Recovery, type Redelivery } from '../deliveries.js'
import { requeue } from '../shared/requeue.js'
import { DELIVERY_COLUMNS, type DeliveryRow, toDeliveryRecord } from '../shared/rows.js'
import { type PostgresDatabase, postgresTime, storable } from './database.js'
import { INSERT_PING } from './events.js'

/** Whether the subscription is enabled, locked FOR KEY SHARE until the transaction ends: a disable waits for it. */
async function enabled(client: pg.PoolClient, subscriptionId: string): Promise<'enabled' | 'disabled' | 'unknown'> {
  const found = await client.query<{ disabled: boolean }>(
    'SELECT disabled_at IS NOT NULL AS disabled FROM webhook_subscriptions WHERE id = $1 FOR KEY SHARE',
    [subscriptionId],
  )
  const row = found.rows[0]
  return row === undefined ? 'unknown' : row.disabled ? 'disabled' : 'enabled'
}

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
   * The subscription is locked FOR KEY SHARE first (the one lock order: subscription, then its
   * events), so a disable committing meanwhile is seen. An event whose attempt is under way
   * (leased) is marked to be sent once more when that attempt's outcome is recorded; any other
   * is due now, with a new round of retries.
   */
  redeliver(subscriptionId: string, messageId: string): Promise<Redelivery> {
    if (!storable(subscriptionId, messageId)) return Promise.resolve('unknown')
    return this.database.transaction(async (client): Promise<Redelivery> => {
      const state = await enabled(client, subscriptionId)
      if (state !== 'enabled') return state
      const result = await client.query(
        `UPDATE webhook_deliveries SET ${requeue('now()')} WHERE subscription_id = $1 AND message_id = $2`,
        [subscriptionId, messageId],
      )
      return result.rowCount === 1 ? 'requeued' : 'unknown'
    })
  }

  recover(subscriptionId: string, since: Date): Promise<Recovery> {
    return this.database.transaction(async (client): Promise<Recovery> => {
      const state = await enabled(client, subscriptionId)
      if (state === 'disabled') return 'disabled'
      const result = await client.query(
        `UPDATE webhook_deliveries SET ${requeue('now()')} WHERE subscription_id = $1 AND state = 'given_up' AND created_at >= $2`,
        [subscriptionId, since],
      )
      return { requeued: result.rowCount ?? 0 }
    })
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
