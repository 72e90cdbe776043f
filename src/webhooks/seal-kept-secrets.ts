import type { Logger } from 'pino'
import { StoreUnavailableError } from '../store/store.js'
import type { SubscriptionRecords } from '../store/subscriptions.js'
import { isSealed, sealSecret } from './secrets.js'

/**
 * Seals, with `key`, every secret an earlier release kept unsealed (before sealing was on by
 * default, or before WEBHOOK_SECRET_KEY was set): at each start, in one transaction, each
 * replacement conditional on the value it replaces, so instances and workers starting
 * together seal each secret once. A database that takes no writes now (a standby) is left for
 * a later start on a primary.
 */
export async function sealKeptSecrets(subscriptions: SubscriptionRecords, key: Buffer, logger: Logger): Promise<void> {
  let sealed: number
  try {
    sealed = await subscriptions.sealKept((kept) => (isSealed(kept) ? null : sealSecret(kept, key)))
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error
    logger.warn({ err: error }, 'webhook secrets kept unsealed could not be sealed: the database takes no writes now')
    return
  }
  if (sealed > 0) logger.info({ sealed }, 'webhook secrets kept unsealed by an earlier release are sealed now')
}
