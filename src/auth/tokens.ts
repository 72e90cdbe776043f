import { hash, randomBytes } from 'node:crypto'

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
