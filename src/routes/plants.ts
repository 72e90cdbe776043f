import type { FastifyInstance, FastifyReply } from 'fastify'
import { principalOf, visibleOwner } from '../auth/principal.js'
import { duplicatePlant, plantNotFound } from '../http/errors.js'
import { traceParentOf } from '../observability/trace-context.js'
import type { NewPlant, PlantStore } from '../store/store.js'
import { fingerprint, idempotencyKey, keyInFlight, keyMismatch, pruneExpiredKeys } from './idempotency.js'
import { listPlants } from './plant-list.js'
import { HEADERS, errorResponses, response } from '../api/responses.js'
import {
  IdempotencyHeaders,
  ListQuery,
  type ListQueryType,
  NewPlantSchema,
  type NewPlantBody,
  PlantIdParams,
  type PlantIdParamsType,
  PlantSchema,
  ref,
} from '../api/schemas.js'

interface PlantRoutesOptions {
  store: PlantStore
  /** How long the outcome of a create with an Idempotency-Key is kept. */
  idempotencyTtlMs: number
}

const tags = ['plants']
/** The document's security requirement for a route whose config says it needs `scope`. */
const bearerWith = (scope: string) => [{ bearerAuth: [scope] }]

function nextPageLink(query: ListQueryType, after: bigint): string {
  const tag = query.tag === undefined ? '' : `&tag=${encodeURIComponent(query.tag)}`
  return `</plants?limit=${query.limit}&after=${after}${tag}>; rel="next"`
}

/** The plant routes; registered inside a scope guarded by `guardWithToken`. */
export async function plantRoutes(app: FastifyInstance, { store, idempotencyTtlMs }: PlantRoutesOptions): Promise<void> {
  pruneExpiredKeys(app, store, idempotencyTtlMs)

  /** The create of one plant; with a key, the kept outcome of an earlier request may answer instead. */
  async function create(store: PlantStore, plant: NewPlant, key: string | undefined, reply: FastifyReply): Promise<'created' | 'exists'> {
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
          "With an Idempotency-Key, a retry of the same request within the key's lifetime gets the first answer again (200 or 400 already exists), with Idempotent-Replayed: true, and has no new effect.",
        tags,
        security: bearerWith('plants:write'),
        headers: IdempotencyHeaders,
        body: ref(NewPlantSchema),
        response: {
          200: response('The plant was created and committed; Location names it', {
            body: PlantSchema,
            headers: { ...HEADERS.location, ...HEADERS.replayed },
            limited: true,
          }),
          ...errorResponses([400, 401, 403, 409, 422, 429, 503], { limited: true }),
        },
      },
    },
    async (request, reply) => {
      const { id, name, tag } = request.body
      const key = idempotencyKey(request.headers['idempotency-key'])
      const plant = { id, owner: principalOf(request).subject, name, tag: tag ?? null, traceParent: traceParentOf(request.traceSpan) }
      if ((await create(request.store, plant, key, reply)) === 'exists') throw duplicatePlant(id)
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
        security: bearerWith('plants:read'),
        querystring: ListQuery,
        response: {
          200: response('The plants in ascending id order, streamed when there are many', {
            body: {
              type: 'array',
              items: ref(PlantSchema),
              maxItems: 2147483647,
              examples: [[{ name: 'Monstera', tag: 'indoor' }, { name: 'Fern' }]],
            },
            headers: HEADERS.nextPage,
            limited: true,
          }),
          ...errorResponses([400, 401, 403, 429, 503], { limited: true }),
        },
      },
    },
    async (request, reply) => {
      const query = request.query
      const { body, nextAfter } = await listPlants(
        request.store,
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
        description: 'A plant of another owner is answered exactly as a missing one: 404.',
        tags,
        security: bearerWith('plants:read'),
        params: PlantIdParams,
        response: {
          200: response('The plant', { body: PlantSchema, limited: true }),
          ...errorResponses([400, 401, 403, 404, 429, 503], { limited: true }),
        },
      },
    },
    async (request) => {
      const plant = await request.store.getPlant(request.params.id, visibleOwner(principalOf(request)))
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
        security: bearerWith('plants:write'),
        params: PlantIdParams,
        response: {
          204: response('The plant was deleted; no body', { limited: true }),
          ...errorResponses([400, 401, 403, 404, 429, 503], { limited: true }),
        },
      },
    },
    async (request, reply) => {
      const deleted = await request.store.deletePlant(
        request.params.id,
        visibleOwner(principalOf(request)),
        traceParentOf(request.traceSpan),
      )
      if (!deleted) throw plantNotFound(request.params.id)
      return reply.code(204).send()
    },
  )
}
