/** What a token may do: each route names the scope it needs. */
export const SCOPES = ['plants:read', 'plants:write', 'plants:admin', 'webhooks:manage'] as const
export type Scope = (typeof SCOPES)[number]
/** The scopes of a token made without `--scope`. */
export const DEFAULT_SCOPES: readonly Scope[] = ['plants:read', 'plants:write']

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value)
}
