import { performance } from 'node:perf_hooks'
import type { FastifyBaseLogger } from 'fastify'
import { Counter, Histogram, type Registry } from 'prom-client'
import { fromZero } from '../observability/collected-metrics.js'
import type { HasMetrics } from '../observability/metrics.js'
import type { WebhookConfig } from '../config/config.js'
import { type ClaimedDelivery, DISABLE_REASONS, type DeliveryOutcome, type FinishedDelivery, type Outbox } from '../store/outbox.js'
import type { AttemptResult, AttemptSender } from './sender.js'
import { retryDelay } from './retry.js'
import { openSecret } from './secrets.js'
import { firstCodePoints, storableText } from '../store/shared/text.js'
import { StoreUnavailableError } from '../store/store.js'

/** Attempts under way at once in one process, and the most claimed per query. */
const MAX_IN_FLIGHT = 32
/**
 * Above this share of busy time of the event loop, requests are waiting: deliveries yield to
 * them, with a few attempts at a time, claimed only on the poll. The backlog is sent when the
 * load drops (webhook_oldest_pending_age_seconds shows the wait).
 */
const BUSY_UTILISATION = 0.5
const BUSY_IN_FLIGHT = 4
/**
 * The most of the attempt slots one subscription, and one subject, may hold at once: a
 * subject's silent receivers (each attempt holding its slot for WEBHOOK_TIMEOUT_MS) leave the
 * rest to others, and a slot that frees goes to the subject holding the fewest.
 */
const SUBSCRIPTION_SHARE = 1 / 2
const SUBJECT_SHARE = 3 / 4
const UTILISATION_EVERY_MS = 250
/** How often an idle worker looks for due events, and after a failed look. */
const POLL_MS = 100
const ERROR_WAIT_MS = 1_000
/** A claim outlives the attempt's timeout by this much before another worker may take it over. */
const LEASE_MARGIN_MS = 15_000
/** Outcomes are written together at most this long after the first of them. */
const RECORD_EVERY_MS = 50
/** How long a stop waits for attempts under way before it cuts them off and gives their claims back. */
const STOP_WAIT_MS = 3_000
/** How long cut-off attempts may take to settle once their connections are destroyed. */
const CUT_WAIT_MS = 1_000

/** How long an event whose secret this key cannot open waits before it is claimed again. */
const KEY_FAILURE_WAIT_MS = 60_000

/** The `outcome` label of webhook_deliveries_total for each kind of outcome. */
const OUTCOME_LABEL: Record<DeliveryOutcome['kind'], string> = {
  delivered: 'delivered',
  retry: 'retried',
  'given-up': 'given_up',
  disable: 'disabled',
}

/** Counts `change` more attempts under way for `key`; a key with none is dropped. */
function hold(held: Map<string, number>, key: string, change: number): void {
  const count = (held.get(key) ?? 0) + change
  if (count > 0) held.set(key, count)
  else held.delete(key)
}

/** Resolves when `work` settles or `ms` has passed, whichever is first. */
const settledWithin = (work: Promise<unknown>, ms: number): Promise<unknown> =>
  Promise.race([work, new Promise((resolve) => setTimeout(resolve, ms).unref())])

const isSuccess = (result: AttemptResult): boolean => 'status' in result && result.status >= 200 && result.status < 300

/** The operator's record of an attempt: what a receiver sent is untrusted text, kept storable and short. */
function describe(result: AttemptResult): string {
  if ('error' in result) return firstCodePoints(storableText(result.error), 200)
  const answer = firstCodePoints(storableText(result.answer).replace(/\s+/g, ' ').trim(), 120)
  return answer === '' ? `HTTP ${result.status}` : `HTTP ${result.status}: ${answer}`
}

/**
 * Claims due events from the outbox, attempts each once, and records the outcome under the
 * claim. Many workers (one per instance on PostgreSQL) share the work without sending an event
 * twice at once; an attempt cut off by a crash is due again when its lease ends.
 */
export class DeliveryWorker implements HasMetrics {
  private running = false
  private loop: Promise<void> = Promise.resolve()
  private readonly underWay = new Set<Promise<void>>()
  /** Attempts under way by subscription and by subject, for the claim's share. */
  private readonly heldBySubscription = new Map<string, number>()
  private readonly heldBySubject = new Map<string, number>()
  private wake: (() => void) | null = null
  /** Whether the event loop was busy over the last sample. */
  private busy = false
  private utilisationTimer: NodeJS.Timeout | undefined
  private finished: FinishedDelivery[] = []
  /** Set once a stop has cut off the attempts still under way: they end without an answer and count for nothing. */
  private cutOff = false
  private readonly cut: ClaimedDelivery[] = []
  private recordTimer: NodeJS.Timeout | undefined
  private readonly recording = new Set<Promise<void>>()
  private readonly outcomes = fromZero(
    new Counter({
      name: 'webhook_deliveries_total',
      help: 'Webhook attempts by outcome: delivered (2xx), retried, given_up (after the last retry) or disabled (410 Gone)',
      labelNames: ['outcome'],
      registers: [],
    }),
    'outcome',
    Object.values(OUTCOME_LABEL),
  )
  private readonly duration = new Histogram({
    name: 'webhook_delivery_duration_seconds',
    help: 'Time of each webhook attempt, from the request to the answer or the failure',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [],
  })

  constructor(
    private readonly outbox: Outbox,
    private readonly sender: AttemptSender,
    private readonly config: WebhookConfig,
    private readonly log: FastifyBaseLogger,
  ) {}

  private readonly disabledCount = fromZero(
    new Counter({
      name: 'webhook_subscriptions_disabled_total',
      help: 'Webhook subscriptions disabled by their outcomes, by reason: gone (410) or failing (no 2xx for WEBHOOK_DISABLE_AFTER)',
      labelNames: ['reason'],
      registers: [],
    }),
    'reason',
    DISABLE_REASONS,
  )

  registerMetrics(registry: Registry): void {
    registry.registerMetric(this.outcomes)
    registry.registerMetric(this.duration)
    registry.registerMetric(this.disabledCount)
  }

  start(): void {
    if (this.running) return
    this.running = true
    let sample = performance.eventLoopUtilization()
    this.utilisationTimer = setInterval(() => {
      const now = performance.eventLoopUtilization()
      this.busy = performance.eventLoopUtilization(now, sample).utilization > BUSY_UTILISATION
      sample = now
    }, UTILISATION_EVERY_MS).unref()
    this.loop = this.run()
  }

  /**
   * Stops claiming and waits a little for the attempts under way. Those still unanswered then
   * are cut off and their claims given back: a stop is not the receiver failing, so no retry is
   * spent, and each is due again after the restart with its webhook-id.
   */
  async stop(): Promise<void> {
    this.running = false
    clearInterval(this.utilisationTimer)
    this.wake?.()
    await this.loop
    await settledWithin(Promise.all(this.underWay), STOP_WAIT_MS)
    this.cutOff = true
    this.sender.close()
    await settledWithin(Promise.all(this.underWay), CUT_WAIT_MS)
    await this.record()
    await Promise.all(this.recording)
    if (this.cut.length > 0) {
      const cut = this.cut.splice(0)
      await this.outbox.release(cut).then(
        () => this.log.info({ events: cut.length }, 'webhook attempts cut off by the stop; they are due again after the restart'),
        (error: unknown) =>
          this.log.warn(
            { err: error, events: cut.length },
            'cut-off webhook attempts could not be given back; due again when their leases end',
          ),
      )
    }
  }

  private async run(): Promise<void> {
    const leaseMs = this.config.timeoutMs + LEASE_MARGIN_MS
    while (this.running) {
      const slots = this.busy ? BUSY_IN_FLIGHT : MAX_IN_FLIGHT
      const room = slots - this.underWay.size
      let waitMs = POLL_MS
      try {
        // Every due event up to `room` is claimed at once, each subscription and subject within its share.
        if (room > 0 && (await this.outbox.hasDue()) && this.running) {
          const share = {
            perSubscription: Math.max(1, Math.floor(slots * SUBSCRIPTION_SHARE)),
            perSubject: Math.max(1, Math.floor(slots * SUBJECT_SHARE)),
            heldBySubscription: this.heldBySubscription,
            heldBySubject: this.heldBySubject,
          }
          for (const claim of await this.outbox.claim(room, leaseMs, share)) this.attempt(claim)
        }
      } catch (error) {
        this.log.warn({ err: error }, 'webhook deliveries could not be claimed; trying again in a second')
        waitMs = ERROR_WAIT_MS
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waitMs)
        this.wake = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      this.wake = null
    }
  }

  private attempt(claim: ClaimedDelivery): void {
    hold(this.heldBySubscription, claim.subscriptionId, 1)
    hold(this.heldBySubject, claim.subject, 1)
    const work = this.deliver(claim).finally(() => {
      hold(this.heldBySubscription, claim.subscriptionId, -1)
      hold(this.heldBySubject, claim.subject, -1)
      this.underWay.delete(work)
      // Claims are made in batches: the loop is woken once half the room is free, not per attempt.
      if (!this.busy && this.underWay.size === MAX_IN_FLIGHT / 2) this.wake?.()
    })
    this.underWay.add(work)
  }

  private async deliver(claim: ClaimedDelivery): Promise<void> {
    const stopTimer = this.duration.startTimer()
    let result: AttemptResult
    let secrets: string[]
    try {
      // During a rotation's overlap the previous secret signs too: receivers not yet updated still verify.
      secrets = [claim.secret, claim.previousSecret]
        .filter((secret): secret is string => secret !== null)
        .map((secret) => openSecret(secret, this.config.secretKey))
    } catch (error) {
      stopTimer()
      await this.keyFailed(claim, error)
      return
    }
    try {
      result = await this.sender.send({
        url: claim.url,
        messageId: claim.messageId,
        event: claim.event,
        body: claim.body,
        secrets,
        traceParent: claim.traceParent,
      })
    } catch (error) {
      result = { error: (error as Error).message, blocked: false }
    }
    stopTimer()
    if (this.cutOff && 'error' in result) {
      this.cut.push(claim)
      return
    }
    const outcome = this.outcomeOf(claim, result)
    this.outcomes.inc({ outcome: OUTCOME_LABEL[outcome.kind] })
    const where = { subscription: claim.subscriptionId, webhookId: claim.messageId, attempt: claim.attempt, result: outcome.result }
    if (outcome.kind === 'given-up') this.log.warn(where, 'webhook event given up after its last attempt')
    else if (outcome.kind === 'disable') this.log.warn(where, 'webhook subscription disabled: the receiver answered 410 Gone')
    else if (outcome.kind === 'retry') this.log.info({ ...where, retryInMs: outcome.afterMs }, 'webhook attempt failed')
    this.finished.push({ claim, outcome, status: 'status' in result ? result.status : null })
    if (this.finished.length >= MAX_IN_FLIGHT) void this.record()
    else this.recordTimer ??= setTimeout(() => void this.record(), RECORD_EVERY_MS)
  }

  /**
   * A secret our key cannot open is our failure, not the receiver's: the claim is given back
   * uncounted (no retry spent, no failing streak) and the event is due again later, when an
   * instance with the right key may take it.
   */
  private async keyFailed(claim: ClaimedDelivery, error: unknown): Promise<void> {
    this.log.error(
      { subscription: claim.subscriptionId, webhookId: claim.messageId, err: error, retryInMs: KEY_FAILURE_WAIT_MS },
      'webhook subscription secret cannot be opened with this key (WEBHOOK_SECRET_KEY or the key file); the event waits',
    )
    await this.outbox.release([claim], KEY_FAILURE_WAIT_MS).catch((failed: unknown) => this.unrecorded(failed, 1))
  }

  /**
   * Writes the outcomes gathered so far in one transaction: under load, one write touches the
   * outbox's pages for many attempts. An outcome lost with the process is attempted again.
   */
  private record(): Promise<void> {
    clearTimeout(this.recordTimer)
    this.recordTimer = undefined
    const batch = this.finished
    this.finished = []
    if (batch.length === 0) return Promise.resolve()
    const written = this.write(batch).catch(async (error: unknown) => {
      // One outcome the store refuses must not undo the others: each is written alone then.
      if (batch.length > 1 && !(error instanceof StoreUnavailableError)) {
        for (const one of batch) await this.write([one]).catch((alone: unknown) => this.unrecorded(alone, 1))
      } else this.unrecorded(error, batch.length)
    })
    this.recording.add(written)
    void written.finally(() => this.recording.delete(written))
    return written
  }

  private async write(batch: FinishedDelivery[]): Promise<void> {
    const disabled = await this.outbox.finish(batch, { disableAfterMs: this.config.disableAfterMs })
    for (const subscription of disabled) {
      this.disabledCount.inc({ reason: subscription.reason })
      this.log.warn(
        { subscription: subscription.id, reason: subscription.description },
        'webhook subscription disabled; its pending events failed (PATCH enabled: true, then recover, to resume)',
      )
    }
  }

  /** The claims run out and the events are attempted again: at least once, never lost. */
  private unrecorded(error: unknown, events: number): void {
    this.log.warn({ err: error, events }, 'webhook outcomes could not be recorded; the events will be attempted again')
  }

  private outcomeOf(claim: ClaimedDelivery, result: AttemptResult): DeliveryOutcome {
    const text = describe(result)
    if (isSuccess(result)) return { kind: 'delivered', result: text }
    if ('status' in result && result.status === 410) return { kind: 'disable', result: text }
    const retryAfterS = 'status' in result ? result.retryAfterS : null
    // The schedule and the give-up count from the round's first attempt (a redeliver or a recover starts a round).
    const afterMs = retryDelay(claim.round, this.config.retryDelaysMs, retryAfterS)
    return afterMs === null ? { kind: 'given-up', result: text } : { kind: 'retry', afterMs, result: text }
  }
}
