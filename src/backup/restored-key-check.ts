import { Database } from '../store/sqlite/driver.js'
import { checkSecretKey } from '../webhooks/secret-key-check.js'
import { readOrCreateSecretKey, secretKeyFileOf } from '../webhooks/secret-key-file.js'
import { isSealed } from '../webhooks/secrets.js'

/**
 * What a restore should say when the restored database holds sealed webhook secrets that no key
 * at hand opens (WEBHOOK_SECRET_KEY, else the key file beside it): the service would refuse to
 * start there. Null when all is well.
 */
export function restoredKeyProblem(target: string, configuredKey: Buffer | null): string | null {
  const db = new Database(target, { readonly: true, fileMustExist: true })
  let sealed: string[]
  try {
    sealed = (db.prepare('SELECT secret FROM webhook_subscriptions').pluck().all() as string[]).filter(isSealed)
  } finally {
    db.close()
  }
  const path = secretKeyFileOf(target)
  try {
    const key = configuredKey ?? readOrCreateSecretKey(path, false)?.key ?? null
    checkSecretKey(sealed, key, `copy the key file kept with the backup to ${path}, or set WEBHOOK_SECRET_KEY to it`)
    return null
  } catch (error) {
    return (error as Error).message
  }
}
