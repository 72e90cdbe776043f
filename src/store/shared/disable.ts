import { type DeliveryOutcome, type DisablePolicy, type DisabledSubscription, GONE_REASON, failingReason } from '../store.js'

/**
 * Whether a failed outcome disables its subscription, and why: a 410 at once; any other failure
 * once the subscription has had no 2xx since a failure at least `disableAfterMs` old.
 */
export function disableCause(
  outcome: DeliveryOutcome,
  failingSince: Date | null,
  now: number,
  { disableAfterMs }: DisablePolicy,
): Pick<DisabledSubscription, 'reason' | 'description'> | null {
  if (outcome.kind === 'disable') return { reason: 'gone', description: GONE_REASON }
  if (outcome.kind === 'delivered' || disableAfterMs === null || failingSince === null) return null
  if (failingSince.getTime() > now - disableAfterMs) return null
  return { reason: 'failing', description: failingReason(failingSince) }
}
