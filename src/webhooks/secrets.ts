import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto'

const SEALED = 'aes-256-gcm:'

/** A new subscription secret, as Standard Webhooks shapes it: whsec_ and 24 random bytes in base64. */
export const newSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`

/** Whether a kept secret is sealed (needs the key to sign). */
export const isSealed = (kept: string): boolean => kept.startsWith(SEALED)

/** The secret as kept: sealed with AES-256-GCM when there is a key, else as it is. */
export function sealSecret(secret: string, key: Buffer | null): string {
  if (key === null) return secret
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
  return SEALED + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')
}

/** The secret to sign with; throws when it is sealed and the key is missing or another. */
export function openSecret(kept: string, key: Buffer | null): string {
  if (!isSealed(kept)) return kept
  if (key === null) throw new Error('the subscription secret is sealed, and WEBHOOK_SECRET_KEY is not set')
  const raw = Buffer.from(kept.slice(SEALED.length), 'base64url')
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12))
  decipher.setAuthTag(raw.subarray(12, 28))
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
}

/**
 * The Standard Webhooks signature: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`,
 * keyed with the base64-decoded part of the secret after `whsec_`.
 */
export function signature(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64')
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64')}`
}
