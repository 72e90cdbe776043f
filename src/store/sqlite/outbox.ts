import { disableCause } from '../shared/disable.js'
import { type ClaimShare, atBound, candidatesFor, fairShare } from '../shared/fair-share.js'
import { storableText } from '../shared/text.js'
import { type ClaimRow, toClaimedDelivery } from '../shared/rows.js'
import type { ClaimedDelivery, DisablePolicy, DisabledSubscription, FinishedDelivery, Outbox, WebhookBacklog } from '../outbox.js'
import type { SqliteDatabase } from './database.js'
import { FAIL_PENDING_EVENTS } from './subscriptions.js'

/**
 * One process delivers a SQLite store's events, so its claims are kept in memory: a claim
 * costs no write (which would dirty old pages of the outbox in the commits of the creates).
 * A process that dies leaves its claimed events due, and they are attempted after a restart.
 */
export class SqliteOutbox implements Outbox {
  /** Events this process is attempting, and until when each claim holds. */
  readonly claims = new Map<bigint, number>()
  private readonly statements

  constructor(private readonly database: SqliteDatabase) {
    const { db } = database
    this.statements = {
      anyDue: db.prepare("SELECT 1 FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= ? LIMIT 1").pluck(),
      due: db
        .prepare(
          // CROSS JOIN keeps the outbox's due index as the outer loop (SQLite would otherwise scan the outbox per subscription).
          'SELECT d.id, d.attempts, d.message_id, d.event, d.body, d.trace_parent, d.subscription_id, s.subject, s.url, s.secret, ' +
            'CASE WHEN s.previous_secret_expires_at > @now THEN s.previous_secret END AS previous_secret FROM webhook_deliveries AS d ' +
            'CROSS JOIN webhook_subscriptions AS s ON s.id = d.subscription_id ' +
            // The claimed rows are skipped inside SQLite: reading them into objects cost more than the query.
            "WHERE d.state = 'pending' AND d.next_attempt_at <= @now AND d.id NOT IN (SELECT value FROM json_each(@claimed)) " +
            // Subscriptions and subjects holding their share of the attempts are passed over.
            'AND d.subscription_id NOT IN (SELECT value FROM json_each(@fullSubscriptions)) ' +
            'AND s.subject NOT IN (SELECT value FROM json_each(@fullSubjects)) ' +
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
      clearFailing: db.prepare('UPDATE webhook_subscriptions SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL'),
      markFailing: db.prepare('UPDATE webhook_subscriptions SET failing_since = coalesce(failing_since, ?) WHERE id = ?'),
      failingSince: db.prepare('SELECT failing_since FROM webhook_subscriptions WHERE id = ? AND disabled_at IS NULL').pluck(),
      disableSubscription: db.prepare(
        'UPDATE webhook_subscriptions SET disabled_at = ?, disabled_reason = ? WHERE id = ? AND disabled_at IS NULL',
      ),
      failPendingEvents: db.prepare(FAIL_PENDING_EVENTS),
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
    return this.database.run(() => {
      const now = Date.now()
      for (const [id, until] of this.claims) if (until <= now) this.claims.delete(id)
      const full = atBound(share)
      const candidates = this.statements.due.all({
        now,
        limit: candidatesFor(limit),
        claimed: `[${[...this.claims.keys()].join(',')}]`,
        fullSubscriptions: JSON.stringify(full.subscriptions),
        fullSubjects: JSON.stringify(full.subjects),
      }) as ClaimRow<bigint>[]
      const rows = fairShare(candidates, limit, share)
      for (const row of rows) this.claims.set(row.id, now + leaseMs)
      // attempts counts those made before this claim: the claim adds none in memory.
      return rows.map((row) => toClaimedDelivery(row, Number(row.attempts) + 1))
    })
  }

  finish(finished: readonly FinishedDelivery[], policy: DisablePolicy): Promise<DisabledSubscription[]> {
    /** The claims given up by this write, until it commits: a redeliver later in its transaction sees the events as no longer under way. */
    const released = new Map<bigint, number>()
    const written = this.database.write(() => {
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
          result: storableText(outcome.result),
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
    })
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
  release(claims: readonly ClaimedDelivery[]): Promise<void> {
    for (const claim of claims) this.claims.delete(claim.id)
    return Promise.resolve()
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
