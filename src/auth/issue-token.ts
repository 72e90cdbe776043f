import type { NewToken, TokenRecords } from '../store/tokens.js'
import { generateToken, hashToken } from './tokens.js'

type TokenSpec = Omit<NewToken, 'hash'>

/** Makes a token and stores only its hash; the token itself is returned once, to be shown once. */
export async function issueToken(tokens: Pick<TokenRecords, 'create'>, spec: TokenSpec): Promise<{ id: number; token: string }> {
  const token = generateToken()
  const id = await tokens.create({ ...spec, hash: hashToken(token) })
  return { id, token }
}

/** The first-start token: made only when the store holds no token at all; null otherwise. */
export async function issueFirstToken(
  tokens: Pick<TokenRecords, 'createFirst'>,
  spec: TokenSpec,
): Promise<{ id: number; token: string } | null> {
  const token = generateToken()
  const id = await tokens.createFirst({ ...spec, hash: hashToken(token) })
  return id === null ? null : { id, token }
}
