import type { FastifyRequest } from 'fastify'
import type { Scope } from '../api/scopes.js'
import type { TokenRecords } from '../store/tokens.js'

/** Who is calling, as established from the bearer token. */
export interface Principal {
  subject: string
  scopes: ReadonlySet<Scope>
  tokenId: string
}

/**
 * Token in, principal out (null when the token is not valid now): at once when the answer is
 * known in memory, else as a promise. Opaque `pst_` tokens (opaque-tokens.ts) and an identity
 * provider's JWTs (jwt-tokens.ts) both answer through it.
 */
export interface Authenticator {
  /** `tokens`: where a token is looked up, when not the authenticator's own (the request's, so the lookup joins its trace). */
  authenticate(token: string, tokens?: TokenRecords): Principal | null | Promise<Principal | null>
}

/** The owner whose plants a principal may reach, or null for every owner (`plants:admin`). */
export function visibleOwner(principal: Principal): string | null {
  return principal.scopes.has('plants:admin') ? null : principal.subject
}

/** The caller of a guarded route: set by the guard's onRequest hook before any handler runs. */
export const principalOf = (request: FastifyRequest): Principal => request.principal as Principal
