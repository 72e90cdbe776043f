import type { NewToken, PlantStore } from '../store/store.js'
import { generateToken, hashToken } from './tokens.js'

type TokenSpec = Omit<NewToken, 'hash'>

/** Makes a token and stores only its hash; the token itself is returned once, to be shown once. */
export async function issueToken(store: Pick<PlantStore, 'createToken'>, spec: TokenSpec): Promise<string> {
  const token = generateToken()
  await store.createToken({ ...spec, hash: hashToken(token) })
  return token
}

/** The first-start token: made only when the store holds no token at all; null otherwise. */
export async function issueFirstToken(
  store: Pick<PlantStore, 'createFirstToken'>,
  spec: TokenSpec,
): Promise<{ id: number; token: string } | null> {
  const token = generateToken()
  const id = await store.createFirstToken({ ...spec, hash: hashToken(token) })
  return id === null ? null : { id, token }
}
