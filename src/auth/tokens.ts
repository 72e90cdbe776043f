import { hash, randomBytes } from 'node:crypto'

export const SCOPES = ['plants:read', 'plants:write', 'plants:admin', 'webhooks:manage'] as const
export type Scope = (typeof SCOPES)[number]
export const DEFAULT_SCOPES: readonly Scope[] = ['plants:read', 'plants:write']

const TOKEN_PREFIX = 'pst_'

/** 32 random bytes, base64url, behind a prefix that secret scanners can recognise. */
export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url')
}

/** Only this hash is stored, so a leaked database does not leak usable tokens. */
export function hashToken(token: string): string {
  // One-shot: about a third of the cost of a Hash object, on every authenticated request.
  return hash('sha256', token, 'hex')
}

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value)
}

const DURATION_UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** `90s`, `45m`, `12h`, `30d` → milliseconds; undefined when the text is not such a duration. */
export function parseDuration(text: string): number | undefined {
  const match = /^([1-9][0-9]{0,8})([smhd])$/.exec(text)
  if (!match) return undefined
  return Number(match[1]) * (DURATION_UNITS[match[2] as string] as number)
}
