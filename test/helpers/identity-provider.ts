import { randomBytes } from 'node:crypto'
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import { type JWK, exportJWK, generateKeyPair } from 'jose'
import Provider from 'oidc-provider'

/** The audience (RFC 8707 resource indicator) the provider puts in tokens for this API. */
export const AUDIENCE = 'https://plantstore.test/api'
const SCOPES = 'plants:read plants:write plants:admin'

export interface ProviderClient {
  id: string
  /** Scopes the client may ask for. */
  scope: string
}

export interface IdentityProvider {
  issuer: string
  /** The private signing key of the provider, with its `kid`: tests forge tokens with it or beside it. */
  signingKey: JWK & { kid: string }
  /** An access token for `clientId`, got as a client gets one: POST /token, client credentials. */
  token(clientId: string, scope?: string): Promise<string>
  /** How many requests for `path` (discovery, `/jwks`) it has answered or is answering. */
  requests(path: string): number
  stop(): Promise<void>
}

export async function signingKey(kid: string): Promise<JWK & { kid: string }> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true })
  return { ...(await exportJWK(privateKey)), kid, alg: 'ES256', use: 'sig' }
}

/** A P-256 public key whose point is not on the curve: no verifier can import it. */
export function offCurveKey(kid: string): JWK & { kid: string } {
  return {
    kty: 'EC',
    crv: 'P-256',
    x: randomBytes(32).toString('base64url'),
    y: randomBytes(32).toString('base64url'),
    kid,
    alg: 'ES256',
    use: 'sig',
  }
}

/**
 * panva's oidc-provider on 127.0.0.1, issuing JWT access tokens (RFC 9068) for AUDIENCE with
 * the client-credentials grant. `port` reuses an address (a restart with new keys);
 * `unusableKeys` are published in its JWKS beside its signing key (oidc-provider refuses them
 * as configuration, so its `/jwks` answer is written here); `answerDelayMs` holds every answer
 * that long (a slow provider, so that requests overlap its fetches).
 */
export async function startIdentityProvider(
  clients: ProviderClient[],
  options: { key?: JWK & { kid: string }; port?: number; unusableKeys?: JWK[]; answerDelayMs?: number } = {},
): Promise<IdentityProvider> {
  const server: Server = createServer()
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  const key = options.key ?? (await signingKey(`key-${randomBytes(4).toString('hex')}`))
  const secrets = new Map(clients.map((client) => [client.id, randomBytes(16).toString('hex')]))
  const provider = new Provider(issuer, {
    clients: clients.map((client) => ({
      client_id: client.id,
      client_secret: secrets.get(client.id) as string,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      scope: client.scope,
    })),
    jwks: { keys: [key] },
    clientDefaults: { id_token_signed_response_alg: 'ES256' },
    scopes: SCOPES.split(' '),
    cookies: { keys: [randomBytes(16).toString('hex')] },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => AUDIENCE,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: SCOPES,
          audience: AUDIENCE,
          accessTokenFormat: 'jwt',
          accessTokenTTL: 300,
          jwt: { sign: { alg: 'ES256' } },
        }),
      },
    },
  })
  const handle = provider.callback()
  const { d: _private, ...publicKey } = key
  const published = JSON.stringify({ keys: [publicKey, ...(options.unusableKeys ?? [])] })
  const counted = new Map<string, number>()
  server.on('request', (request, response) => {
    const path = new URL(request.url ?? '/', issuer).pathname
    counted.set(path, (counted.get(path) ?? 0) + 1)
    if (options.answerDelayMs !== undefined) setTimeout(() => respond(request, response), options.answerDelayMs)
    else respond(request, response)
  })
  const respond = (request: IncomingMessage, response: ServerResponse) => {
    if (options.unusableKeys !== undefined && request.url === '/jwks') {
      response.writeHead(200, { 'content-type': 'application/jwk-set+json' }).end(published)
      return
    }
    // oidc-provider (Koa) answers its own errors; its promise only says when the answer is done.
    void handle(request, response)
  }
  return {
    issuer,
    signingKey: key,
    async token(clientId, scope) {
      const body = new URLSearchParams({ grant_type: 'client_credentials', resource: AUDIENCE })
      if (scope !== undefined) body.set('scope', scope)
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secrets.get(clientId)}`).toString('base64')}` },
        body,
      })
      const answer = (await response.json()) as { access_token?: string; error?: string; error_description?: string }
      if (answer.access_token === undefined) throw new Error(`no token: ${answer.error}: ${answer.error_description}`)
      return answer.access_token
    },
    requests: (path) => counted.get(path) ?? 0,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
