import type { FastifyInstance, FastifyReply } from 'fastify'
import { principalOf, visibleOwner } from '../auth/principal.js'
import { duplicatePlant, keyInFlight, keyMismatch, plantNotFound } from '../http/errors.js'
import { traceParentOf } from '../observability/trace-context.js'
import type { NewPlant, PlantRecords } from '../store/plants.js'
import { fingerprint, idempotencyKey } from './idempotency.js'
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
  /** How long the outcome of a create with an Idempotency-Key is kept. */
  idempotencyTtlMs: number
}

function nextPageLink(query: ListQueryType, after: bigint): string {
  const tag = query.tag === undefined ? '' : `&tag=${encodeURIComponent(query.tag)}`
  return `</plants?limit=${query.limit}&after=${after}${tag}>; rel="next"`
}

/** The plant routes; registered inside a scope guarded by `guardWithToken`. */
export async function plantRoutes(app: FastifyInstance, { idempotencyTtlMs }: PlantRoutesOptions): Promise<void> {
  /** The create of one plant; with a key, the kept outcome of an earlier request may answer instead. */
  async function create(
    plants: PlantRecords,
    plant: NewPlant,
    key: string | undefined,
    reply: FastifyReply,
  ): Promise<'created' | 'exists'> {
    if (key === undefined) return (await plants.create(plant)) ? 'created' : 'exists'
    const keptSince = new Date(Date.now() - idempotencyTtlMs)
    const result = await plants.createWithKey(plant, { key, fingerprint: fingerprint(plant), keptSince })
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
        headers: IdempotencyHeaders,
        body: ref(NewPlantSchema),
        response: {
          200: response('The plant was created and committed; Location names it', {
            body: PlantSchema,
            headers: { ...HEADERS.location, ...HEADERS.replayed },
          }),
          ...errorResponses([400, 409, 422]),
        },
      },
    },
    async (request, reply) => {
      const { id, name, tag } = request.body
      const key = idempotencyKey(request.headers['idempotency-key'])
      const plant = { id, owner: principalOf(request).subject, name, tag: tag ?? null, traceParent: traceParentOf(request.traceSpan) }
      if ((await create(request.store.plants, plant, key, reply)) === 'exists') throw duplicatePlant(id)
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
          }),
          ...errorResponses([400]),
        },
      },
    },
    async (request, reply) => {
      const query = request.query
      const { body, nextAfter } = await listPlants(
        request.store.plants,
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
        params: PlantIdParams,
        response: {
          200: response('The plant', { body: PlantSchema }),
          ...errorResponses([400, 404]),
        },
      },
    },
    async (request) => {
      const plant = await request.store.plants.get(request.params.id, visibleOwner(principalOf(request)))
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
        params: PlantIdParams,
        response: {
          204: response('The plant was deleted; no body'),
          ...errorResponses([400, 404]),
        },
      },
    },
    async (request, reply) => {
      const deleted = await request.store.plants.delete(
        request.params.id,
        visibleOwner(principalOf(request)),
        traceParentOf(request.traceSpan),
      )
      if (!deleted) throw plantNotFound(request.params.id)
      return reply.code(204).send()
    },
  )
}
