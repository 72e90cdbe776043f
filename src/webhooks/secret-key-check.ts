import type { SubscriptionRecords } from '../store/subscriptions.js'
import { isSealed, openSecret } from './secrets.js'

/** The sealed secrets kept: a start checks that its key opens them before it delivers or seals any. */
export async function sealedSecrets(subscriptions: SubscriptionRecords): Promise<string[]> {
  return (await subscriptions.list(null)).map((subscription) => subscription.secret).filter(isSealed)
}

const opens = (key: Buffer, sealed: string): boolean => {
  try {
    openSecret(sealed, key)
    return true
  } catch {
    return false
  }
}

/**
 * Throws when secrets are sealed and `key` is missing or opens none of them: every delivery
 * would fail on our side, and every secret made would be sealed with a key they do not share.
 * `missing` says where the key should be.
 */
export function checkSecretKey(sealed: readonly string[], key: Buffer | null, missing: string): void {
  if (sealed.length === 0) return
  // One current secret per subscription is checked: the count is of subscriptions, not of secrets.
  const subscriptions = sealed.length === 1 ? '1 webhook subscription' : `${sealed.length} webhook subscriptions`
  if (key === null)
    throw new Error(`${subscriptions} ${sealed.length === 1 ? 'has its' : 'have their'} secrets sealed and there is no key: ${missing}`)
  if (!sealed.some((one) => opens(key, one)))
    throw new Error(
      `the webhook secret key opens none of the sealed secrets of ${subscriptions}: ` + `give the key they were sealed with (${missing})`,
    )
}
