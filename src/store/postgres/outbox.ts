import { disableCause } from '../shared/disable.js'
import type { ClaimShare } from '../outbox.js'
import { type ClaimCandidate, atBound, candidatesFor, fairShare } from '../shared/fair-share.js'
import { storableText } from '../shared/text.js'
import { type ClaimRow, toClaimedDelivery } from '../shared/rows.js'
import type {
  ClaimedDelivery,
  DeliveryOutcome,
  DisablePolicy,
  DisabledSubscription,
  FinishedDelivery,
  Outbox,
  WebhookBacklog,
} from '../outbox.js'
import type { PostgresDatabase } from './database.js'
import { FAIL_PENDING_EVENTS } from './subscriptions.js'

/** A disabled subscription gets pings only. */
const ENABLED_OR_PING = "(s.disabled_at IS NULL OR d.event = 'ping')"
/**
 * Disabled during the attempt (failed by the disable, even if enabled again since): recorded as it
 * ended, and not tried again (a ping is, to test the endpoint).
 */
const CLOSED = "((s.disabled_at IS NOT NULL OR d.state <> 'pending') AND d.event <> 'ping')"
/** A redeliver asked for during the attempt: due again now, with a new round of retries, unless a disable failed it meanwhile. */
const AGAIN = "(d.redeliver AND s.disabled_at IS NULL AND d.state = 'pending')"

const state = (outcome: DeliveryOutcome) => (outcome.kind === 'delivered' ? 'delivered' : outcome.kind === 'retry' ? 'pending' : 'given_up')

/** The outbox shared by every instance: a claim is a leased row, and rows another instance is claiming are skipped. */
export class PostgresOutbox implements Outbox {
  constructor(private readonly database: PostgresDatabase) {}

  async hasDue(): Promise<boolean> {
    const result = await this.database.query(
      'any_due_delivery',
      "SELECT 1 FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= now() LIMIT 1",
      [],
    )
    return result.rowCount === 1
  }

  async claim(limit: number, leaseMs: number, share: ClaimShare): Promise<ClaimedDelivery[]> {
    const full = atBound(share)
    // Candidates are read without locks and chosen by share; the claim below takes those still due and not locked.
    // A disabled subscription gets pings only.
    const candidates = await this.database.query<ClaimCandidate & { id: string }>(
      'claim_candidates',
      'SELECT d.id::text AS id, d.subscription_id, s.subject FROM webhook_deliveries AS d ' +
        'JOIN webhook_subscriptions AS s ON s.id = d.subscription_id ' +
        "WHERE d.state = 'pending' AND d.next_attempt_at <= now() AND d.subscription_id <> ALL($2::text[]) AND s.subject <> ALL($3::text[]) " +
        `AND ${ENABLED_OR_PING} ORDER BY d.next_attempt_at LIMIT $1`,
      [candidatesFor(limit), full.subscriptions, full.subjects],
    )
    const chosen = fairShare(candidates.rows, limit, share).map((row) => row.id)
    if (chosen.length === 0) return []
    const result = await this.database.query<ClaimRow<string>>(
      'claim_deliveries',
      // The locking read is a CTE so that it runs once: as an IN subquery the planner may run it again and claim more.
      // The subscription is locked FOR KEY SHARE, skipped while a disable holds it: one disabled since the
      // candidates were read is seen as it is now, and its events are not handed out.
      'WITH due AS (SELECT d.id FROM webhook_deliveries AS d JOIN webhook_subscriptions AS s ON s.id = d.subscription_id ' +
        `WHERE d.id = ANY($1::int8[]) AND d.state = 'pending' AND d.next_attempt_at <= now() AND ${ENABLED_OR_PING} ` +
        'FOR UPDATE OF d SKIP LOCKED FOR KEY SHARE OF s SKIP LOCKED), ' +
        'lease AS (SELECT now() + make_interval(secs => $2::float8 / 1000) AS until) ' +
        // A claim also clears a redeliver asked for during an attempt since cut off: this attempt is the one more.
        'UPDATE webhook_deliveries AS d SET attempts = d.attempts + 1, next_attempt_at = lease.until, leased_until = lease.until, redeliver = false ' +
        'FROM due, lease, webhook_subscriptions AS s WHERE d.id = due.id AND s.id = d.subscription_id ' +
        'RETURNING d.id::text AS id, d.attempts, d.round_start, d.message_id, d.event, d.body, d.trace_parent, d.subscription_id, s.subject, s.url, s.secret, ' +
        'CASE WHEN s.previous_secret_expires_at > now() THEN s.previous_secret END AS previous_secret',
      [chosen, leaseMs],
    )
    // The claim's UPDATE has counted this attempt already.
    return result.rows.map((row) => toClaimedDelivery(row))
  }

  /**
   * One statement for the outcomes, fenced by the claim (attempt and lease); what disables a
   * subscription does so in the same transaction. Locks are taken in the one order every write
   * of the outbox keeps: the subscriptions (by id), then their events.
   */
  finish(finished: readonly FinishedDelivery[], policy: DisablePolicy): Promise<DisabledSubscription[]> {
    const subscriptions = [...new Set(finished.map(({ claim }) => claim.subscriptionId))]
    return this.database.transaction(async (client) => {
      await client.query('SELECT 1 FROM webhook_subscriptions WHERE id = ANY($1::text[]) ORDER BY id FOR NO KEY UPDATE', [subscriptions])
      const recorded = await client.query<{ id: string }>(
        // The fence is in the UPDATE's own WHERE: a row changed meanwhile is checked again as it is now.
        `UPDATE webhook_deliveries AS d SET state = CASE WHEN ${AGAIN} THEN 'pending' WHEN ${CLOSED} AND u.state <> 'delivered' THEN 'given_up' ELSE u.state END, ` +
          `round_start = CASE WHEN ${AGAIN} THEN d.attempts ELSE d.round_start END, redeliver = false, leased_until = NULL, ` +
          'last_result = u.result, last_status = u.status, last_attempt_at = now(), ' +
          `finished_at = CASE WHEN ${AGAIN} OR (u.state = 'pending' AND NOT ${CLOSED}) THEN NULL ELSE now() END, ` +
          `next_attempt_at = CASE WHEN ${AGAIN} THEN now() WHEN u.state = 'pending' AND NOT ${CLOSED} THEN now() + make_interval(secs => u.after_ms / 1000) ELSE d.next_attempt_at END ` +
          'FROM unnest($1::int8[], $2::int[], $3::text[], $4::float8[], $5::text[], $6::int[]) AS u (id, attempt, state, after_ms, result, status), ' +
          'webhook_subscriptions AS s ' +
          'WHERE d.id = u.id AND d.attempts = u.attempt AND d.leased_until IS NOT NULL AND s.id = d.subscription_id RETURNING d.id::text AS id',
        [
          finished.map(({ claim }) => String(claim.id)),
          finished.map(({ claim }) => claim.attempt),
          finished.map(({ outcome }) => state(outcome)),
          finished.map(({ outcome }) => (outcome.kind === 'retry' ? outcome.afterMs : 0)),
          finished.map(({ outcome }) => storableText(outcome.result)),
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
        // FOR UPDATE waits for the creates that hold the subscription FOR KEY SHARE: their events are failed with the others.
        await client.query('SELECT 1 FROM webhook_subscriptions WHERE id = $1 FOR UPDATE', [subscriptionId])
        await client.query(
          'UPDATE webhook_subscriptions SET disabled_at = now(), disabled_reason = $2 WHERE id = $1 AND disabled_at IS NULL',
          [subscriptionId, cause.description],
        )
        await client.query(FAIL_PENDING_EVENTS, [subscriptionId, cause.description])
        disabled.push({ id: subscriptionId, ...cause })
      }
      return disabled
    })
  }

  /** The claim's count is taken back, fenced by it as an outcome is: a claim taken over since stays. */
  async release(claims: readonly ClaimedDelivery[], dueInMs = 0): Promise<void> {
    if (claims.length === 0) return
    await this.database.query(
      'release_deliveries',
      "UPDATE webhook_deliveries AS d SET attempts = d.attempts - 1, next_attempt_at = CASE WHEN d.state = 'pending' THEN now() + $3::float8 * interval '1 millisecond' ELSE d.next_attempt_at END, " +
        'leased_until = NULL, redeliver = false ' +
        'FROM unnest($1::int8[], $2::int[]) AS u (id, attempt) WHERE d.id = u.id AND d.attempts = u.attempt AND d.leased_until IS NOT NULL',
      [claims.map((claim) => String(claim.id)), claims.map((claim) => claim.attempt), dueInMs],
    )
  }

  async backlog(): Promise<WebhookBacklog> {
    const result = await this.database.query<{ pending: number; oldest: Date | null }>(
      'webhook_backlog',
      "SELECT count(*)::int AS pending, min(created_at) AS oldest FROM webhook_deliveries WHERE state = 'pending'",
      [],
    )
    const row = result.rows[0]
    return { pending: row?.pending ?? 0, oldestCreatedAt: row?.oldest ?? null }
  }

  async prune(before: Date, limit: number): Promise<number> {
    const result = await this.database.query(
      'prune_deliveries',
      "DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries WHERE state <> 'pending' AND finished_at < $1 ORDER BY id LIMIT $2)",
      [before, limit],
    )
    return result.rowCount ?? 0
  }
}
