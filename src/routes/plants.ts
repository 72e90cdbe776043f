import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { requireToken } from '../auth/guard.js'
import { type Authenticator, type Principal, visibleOwner } from '../auth/principal.js'
import { duplicatePlant, plantNotFound } from '../http/errors.js'
import type { NewPlant, PlantStore } from '../store/store.js'
import { fingerprint, idempotencyKey, keyInFlight, keyMismatch, pruneExpiredKeys } from './idempotency.js'
import { listPlants } from './plant-list.js'
import {
  IdempotencyHeaders,
  ListQuery,
  type ListQueryType,
  NewPlantSchema,
  type NewPlantBody,
  PlantIdParams,
  type PlantIdParamsType,
  PlantSchema,
  errorResponses,
} from './schemas.js'
import { Type } from '@sinclair/typebox'

interface PlantRoutesOptions {
  store: PlantStore
  authenticator: Authenticator
  /** Requests per minute per token or client address; 0 = no limit. */
  rateLimit: number
  /** Shares the rate-limit counters between instances; null = counted per instance. */
  redisUrl: string | null
  /** How long the outcome of a create with an Idempotency-Key is kept. */
  idempotencyTtlMs: number
}

const security = [{ bearerAuth: [] }]
const tags = ['plants']

/** Set by the onRequest hook of this scope before any handler runs. */
const principalOf = (request: FastifyRequest): Principal => request.principal as Principal

function nextPageLink(query: ListQueryType, after: bigint): string {
  const tag = query.tag === undefined ? '' : `&tag=${encodeURIComponent(query.tag)}`
  return `</plants?limit=${query.limit}&after=${after}${tag}>; rel="next"`
}

export async function plantRoutes(
  app: FastifyInstance,
  { store, authenticator, rateLimit, redisUrl, idempotencyTtlMs }: PlantRoutesOptions,
): Promise<void> {
  app.decorateRequest('principal', null)
  // Loaded only when RATE_LIMIT is set: the limiter and its Redis client cost ~20 MB of memory.
  const limit = rateLimit > 0 ? await (await import('../auth/rate-limit.js')).createRequestLimiter(app, rateLimit, redisUrl) : null
  app.addHook('onRequest', requireToken(authenticator, limit))
  pruneExpiredKeys(app, store, idempotencyTtlMs)

  /** The create of one plant; with a key, the kept outcome of an earlier request may answer instead. */
  async function create(plant: NewPlant, key: string | undefined, reply: FastifyReply): Promise<'created' | 'exists'> {
    if (key === undefined) return (await store.createPlant(plant)) ? 'created' : 'exists'
    const keptSince = new Date(Date.now() - idempotencyTtlMs)
    const result = await store.createPlantWithKey(plant, { key, fingerprint: fingerprint(plant), keptSince })
    if (result.outcome === 'in-flight') throw keyInFlight()
    if (result.outcome === 'mismatch') throw keyMismatch()
    if (result.replayed) reply.header('idempotent-replayed', 'true')
    return result.outcome
  }

  app.post<{ Body: NewPlantBody }>(
    '/plants',
    {
      config: { scope: 'plants:write' },
      schema: {
        operationId: 'createPlant',
        summary: 'Create a plant',
        description:
          'Adds a plant owned by the caller. Every failure caused by the request (bad JSON, wrong content type, body over 16 KiB, invalid field, an id that already exists) is a 400. ' +
          'With an Idempotency-Key, a retry of the same request within the key\'s lifetime gets the first answer again (200 or 400 already exists), with Idempotent-Replayed: true, and has no new effect.',
        tags,
        security,
        headers: IdempotencyHeaders,
        body: NewPlantSchema,
        response: {
          200: {
            ...PlantSchema,
            description: 'The plant was created and committed; Location names it',
            headers: {
              Location: Type.String({ description: 'The path of the new plant: /plants/{id}' }),
              'Idempotent-Replayed': Type.Literal('true', { description: 'Sent when this is the kept answer of an earlier request with the same Idempotency-Key' }),
            },
          },
          ...errorResponses(400, 401, 403, 409, 422, 429, 500, 503),
        },
      },
    },
    async (request, reply) => {
      const { id, name, tag } = request.body
      const key = idempotencyKey(request.headers['idempotency-key'])
      const plant = { id, owner: principalOf(request).subject, name, tag: tag ?? null }
      if ((await create(plant, key, reply)) === 'exists') throw duplicatePlant(id)
      reply.header('location', `/plants/${id}`)
      return tag === undefined ? { name } : { name, tag }
    },
  )

  app.get<{ Querystring: ListQueryType }>(
    '/plants',
    {
      config: { scope: 'plants:read' },
      schema: {
        operationId: 'listPlants',
        summary: 'List the plants the caller may access',
        description:
          'Plants in ascending id order: the caller\'s own, or every plant for a token with plants:admin. When a page holds exactly `limit` (> 0) plants, a `Link: <…>; rel="next"` header gives the next page.',
        tags,
        security,
        querystring: ListQuery,
        response: {
          200: {
            ...Type.Array(PlantSchema),
            description: 'The plants, streamed when there are many',
            headers: {
              Link: Type.String({ description: 'RFC 8288 link to the next page, rel="next"; sent when the page is full' }),
            },
          },
          ...errorResponses(400, 401, 403, 429, 500, 503),
        },
      },
    },
    async (request, reply) => {
      const query = request.query
      const { body, nextAfter } = await listPlants(
        store,
        { owner: visibleOwner(principalOf(request)), tag: query.tag ?? null, after: query.after ?? null, upTo: null },
        query.limit,
      )
      if (nextAfter !== null) reply.header('link', nextPageLink(query, nextAfter))
      // The store made the JSON text already (Fastify sends a JSON string as it is).
      return reply.type('application/json; charset=utf-8').send(body)
    },
  )

  app.get<{ Params: PlantIdParamsType }>(
    '/plants/:id',
    {
      config: { scope: 'plants:read' },
      schema: {
        operationId: 'getPlant',
        summary: 'Get one plant',
        tags,
        security,
        params: PlantIdParams,
        response: {
          200: { ...PlantSchema, description: 'The plant' },
          ...errorResponses(400, 401, 403, 404, 429, 500, 503),
        },
      },
    },
    async (request) => {
      const plant = await store.getPlant(request.params.id, visibleOwner(principalOf(request)))
      if (plant === null) throw plantNotFound(request.params.id)
      return plant
    },
  )

  app.delete<{ Params: PlantIdParamsType }>(
    '/plants/:id',
    {
      config: { scope: 'plants:write' },
      schema: {
        operationId: 'deletePlant',
        summary: 'Delete a plant',
        description: 'A plant of another owner is answered exactly as a missing one: 404.',
        tags,
        security,
        params: PlantIdParams,
        response: {
          204: Type.Null({ description: 'The plant was deleted; no body' }),
          ...errorResponses(400, 401, 403, 404, 429, 500, 503),
        },
      },
    },
    async (request, reply) => {
      const deleted = await store.deletePlant(request.params.id, visibleOwner(principalOf(request)))
      if (!deleted) throw plantNotFound(request.params.id)
      return reply.code(204).send()
    },
  )
}
