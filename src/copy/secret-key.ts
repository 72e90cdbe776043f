import { existsSync, readFileSync } from 'node:fs'
import type { DatabaseConfig } from '../config/config.js'
import { linkKey, secretKeyFileOf } from '../webhooks/secret-key-file.js'

/** The key sealing the source's webhook secrets: WEBHOOK_SECRET_KEY, else a SQLite source's key file. */
function sourceKey(from: DatabaseConfig, env: NodeJS.ProcessEnv): { key: Buffer; file: string | null } | null {
  if (env.WEBHOOK_SECRET_KEY) return { key: Buffer.from(env.WEBHOOK_SECRET_KEY, 'base64'), file: null }
  if (from.kind !== 'sqlite') return null
  const file = secretKeyFileOf(from.path)
  return existsSync(file) ? { key: Buffer.from(readFileSync(file, 'utf8').trim(), 'base64'), file } : null
}

/**
 * After a copy, the sealed webhook secrets can be opened where the target's service looks for
 * its key: beside a SQLite target, the key is written 0600 (unless one is there); a PostgreSQL
 * target's instances need WEBHOOK_SECRET_KEY, which the lines returned tell the operator.
 */
export function carrySecretKey(from: DatabaseConfig, to: DatabaseConfig, env: NodeJS.ProcessEnv = process.env): string[] {
  const source = sourceKey(from, env)
  if (source === null) return []
  if (source.key.length !== 32) return ['copy: WEBHOOK_SECRET_KEY is not 32 bytes in base64: no key was written for the target']
  if (to.kind === 'sqlite') {
    const target = secretKeyFileOf(to.path)
    if (linkKey(target, source.key)) return [`copy: the key sealing the webhook secrets is in ${target} too`]
    if (readFileSync(target, 'utf8').trim() === source.key.toString('base64')) return []
    return [`copy: ${target} holds another key than the one sealing the copied webhook secrets: put the source's in its place`]
  }
  if (source.file === null) return []
  return [
    `copy: the copied webhook secrets stay sealed with the key in ${source.file}: start the PostgreSQL instances with WEBHOOK_SECRET_KEY set to its content`,
  ]
}
