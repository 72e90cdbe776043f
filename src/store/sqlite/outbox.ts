import { disableCause } from '../shared/disable.js'
import type { ClaimShare } from '../outbox.js'
import { atBound, candidatesFor, fairShare } from '../shared/fair-share.js'
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
import type { SqliteDatabase } from './database.js'
import { FAIL_PENDING_EVENTS } from './subscriptions.js'

const STATES: Record<DeliveryOutcome['kind'], string> = {
  delivered: 'delivered',
  retry: 'pending',
  'given-up': 'given_up',
  disable: 'given_up',
}

/**
 * One process delivers a SQLite store's events, but every worker process (WORKERS) serves
 * redeliveries: a claim is therefore written into the event's row (`leased_until`, attempts
 * counted), where a redeliver served by any process sees the attempt under way. The claims
 * left by a process that died are given back by the next one's first claim: no other process
 * delivers, so none of them is still under way.
 */
export class SqliteOutbox implements Outbox {
  private readonly statements
  /** Whether this process has claimed before: its first claim gives back those of a process before it. */
  private claimed = false

  constructor(private readonly database: SqliteDatabase) {
    const { db } = database
    this.statements = {
      anyDue: db.prepare("SELECT 1 FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= ? LIMIT 1").pluck(),
      due: db
        .prepare(
          // CROSS JOIN keeps the outbox's due index as the outer loop (SQLite would otherwise scan the outbox per subscription).
          'SELECT d.id, d.attempts + 1 AS attempts, d.round_start, d.message_id, d.event, d.body, d.trace_parent, d.subscription_id, s.subject, s.url, s.secret, ' +
            'CASE WHEN s.previous_secret_expires_at > @now THEN s.previous_secret END AS previous_secret FROM webhook_deliveries AS d ' +
            'CROSS JOIN webhook_subscriptions AS s ON s.id = d.subscription_id ' +
            // A disabled subscription gets pings only.
            "WHERE d.state = 'pending' AND d.next_attempt_at <= @now AND (s.disabled_at IS NULL OR d.event = 'ping') " +
            // Subscriptions and subjects holding their share of the attempts are passed over.
            'AND d.subscription_id NOT IN (SELECT value FROM json_each(@fullSubscriptions)) ' +
            'AND s.subject NOT IN (SELECT value FROM json_each(@fullSubjects)) ' +
            'ORDER BY d.next_attempt_at LIMIT @limit',
        )
        .safeIntegers(true),
      // A claim also clears a redeliver asked for during an attempt since cut off: this attempt is the one more.
      lease: db.prepare(
        'UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt_at = @until, leased_until = @until, redeliver = 0 WHERE id = @id',
      ),
      giveBackAbandoned: db.prepare(
        "UPDATE webhook_deliveries SET leased_until = NULL, next_attempt_at = CASE WHEN state = 'pending' THEN ? ELSE next_attempt_at END " +
          'WHERE leased_until IS NOT NULL',
      ),
      claimed: db.prepare(
        'SELECT d.redeliver, d.event, d.state, s.disabled_at IS NOT NULL AS disabled FROM webhook_deliveries AS d ' +
          'JOIN webhook_subscriptions AS s ON s.id = d.subscription_id WHERE d.id = ? AND d.attempts = ? AND d.leased_until IS NOT NULL',
      ),
      record: db.prepare(
        'UPDATE webhook_deliveries SET state = @state, finished_at = @finishedAt, next_attempt_at = @nextAttemptAt, ' +
          'round_start = CASE WHEN @newRound = 1 THEN attempts ELSE round_start END, leased_until = NULL, redeliver = 0, ' +
          'last_result = @result, last_status = @status, last_attempt_at = @attemptedAt WHERE id = @id',
      ),
      clearFailing: db.prepare('UPDATE webhook_subscriptions SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL'),
      markFailing: db.prepare(
        'UPDATE webhook_subscriptions SET failing_since = coalesce(failing_since, ?) WHERE id = ? AND disabled_at IS NULL',
      ),
      failingSince: db.prepare('SELECT failing_since FROM webhook_subscriptions WHERE id = ? AND disabled_at IS NULL').pluck(),
      disableSubscription: db.prepare(
        'UPDATE webhook_subscriptions SET disabled_at = ?, disabled_reason = ? WHERE id = ? AND disabled_at IS NULL',
      ),
      failPendingEvents: db.prepare(FAIL_PENDING_EVENTS),
      release: db.prepare(
        "UPDATE webhook_deliveries SET attempts = attempts - 1, next_attempt_at = CASE WHEN state = 'pending' THEN @now ELSE next_attempt_at END, " +
          'leased_until = NULL, redeliver = 0 WHERE id = @id AND attempts = @attempt AND leased_until IS NOT NULL',
      ),
      // The count is kept by triggers and the oldest found by an index: a scrape reads two rows, whatever the backlog.
      backlog: db.prepare(
        'SELECT (SELECT pending FROM webhook_backlog WHERE id = 1) AS pending, ' +
          "(SELECT min(created_at) FROM webhook_deliveries WHERE state = 'pending') AS oldest",
      ),
      // By the index of finished events: the rows within the retention are never read.
      prune: db.prepare(
        'DELETE FROM webhook_deliveries WHERE id IN ' +
          "(SELECT id FROM webhook_deliveries WHERE state <> 'pending' AND finished_at < ? ORDER BY finished_at LIMIT ?)",
      ),
    }
  }

  hasDue(): Promise<boolean> {
    return this.database.run(() => this.statements.anyDue.get(Date.now()) !== undefined)
  }

  claim(limit: number, leaseMs: number, share: ClaimShare): Promise<ClaimedDelivery[]> {
    return this.database.write(() => {
      const now = Date.now()
      if (!this.claimed) this.statements.giveBackAbandoned.run(now)
      this.claimed = true
      const full = atBound(share)
      const candidates = this.statements.due.all({
        now,
        limit: candidatesFor(limit),
        fullSubscriptions: JSON.stringify(full.subscriptions),
        fullSubjects: JSON.stringify(full.subjects),
      }) as ClaimRow<bigint>[]
      const rows = fairShare(candidates, limit, share)
      for (const row of rows) this.statements.lease.run({ id: row.id, until: now + leaseMs })
      return rows.map((row) => toClaimedDelivery(row))
    })
  }

  /**
   * An outcome that could not be written (a full disk) leaves its event claimed until the lease
   * ends: the receiver is not sent it again meanwhile.
   */
  finish(finished: readonly FinishedDelivery[], policy: DisablePolicy): Promise<DisabledSubscription[]> {
    return this.database.write(() => {
      const now = Date.now()
      // The last recorded outcome of each subscription in this batch decides its failing streak.
      const last = new Map<string, FinishedDelivery['outcome']>()
      for (const { claim, outcome, status } of finished) {
        const row = this.statements.claimed.get(claim.id, claim.attempt) as
          { redeliver: number; event: string; state: string; disabled: number } | undefined
        // Taken over since (its lease ended and another claim counted), given back, or gone.
        if (row === undefined) continue
        // Disabled during the attempt (failed by the disable, even if enabled again since): recorded as it ended,
        // and not tried again (a ping is, to test the endpoint).
        const closed = (row.disabled === 1 || row.state !== 'pending') && row.event !== 'ping'
        const again = !closed && row.redeliver === 1
        const state = again ? 'pending' : closed && outcome.kind !== 'delivered' ? 'given_up' : STATES[outcome.kind]
        this.statements.record.run({
          id: claim.id,
          state,
          finishedAt: state === 'pending' ? null : now,
          nextAttemptAt: again ? now : outcome.kind === 'retry' && !closed ? now + outcome.afterMs : now,
          newRound: again ? 1 : 0,
          result: storableText(outcome.result),
          status,
          attemptedAt: now,
        })
        last.set(claim.subscriptionId, outcome)
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
    })
  }

  /** Each given-back event is due now, its attempt not counted, unless its claim was taken over since. */
  async release(claims: readonly ClaimedDelivery[], dueInMs = 0): Promise<void> {
    if (claims.length === 0) return
    await this.database.write(() => {
      const now = Date.now() + dueInMs
      for (const claim of claims) this.statements.release.run({ id: claim.id, attempt: claim.attempt, now })
    })
  }

  backlog(): Promise<WebhookBacklog> {
    return this.database.run(() => {
      const row = this.statements.backlog.get() as { pending: number; oldest: number | null }
      return { pending: row.pending, oldestCreatedAt: row.oldest === null ? null : new Date(row.oldest) }
    })
  }

  prune(before: Date, limit: number): Promise<number> {
    return this.database.write(() => this.statements.prune.run(before.getTime(), limit).changes)
  }
}
