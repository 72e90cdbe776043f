import { Type } from '@sinclair/typebox'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { principalOf, visibleOwner } from '../auth/principal.js'
import { etagOf, ifMatchOf, ifNoneMatchOf } from '../http/entity-tags.js'
import {
  duplicatePlant,
  keyInFlight,
  keyMismatch,
  listHasNoTag,
  plantExists,
  plantNotFound,
  preconditionFailed,
  preconditionRequired,
  readPreconditionFailed,
} from '../http/errors.js'
import { registerMergePatchParser } from '../http/json-body.js'
import { traceParentOf } from '../observability/trace-context.js'
import { type NewPlant, type PlantRecords, type Preconditions, type Versions, names } from '../store/plants.js'
import { fingerprint, idempotencyKey } from './idempotency.js'
import { listPlants } from './plant-list.js'
import { HEADERS, errorResponses, response } from '../api/responses.js'
import {
  CreateHeaders,
  ListConditionHeaders,
  ListQuery,
  type ListQueryType,
  NewPlantSchema,
  type NewPlantBody,
  WriteConditionHeaders,
  ReadConditionHeaders,
  ListedPlantSchema,
  PlantIdParams,
  type PlantIdParamsType,
  PlantPatchSchema,
  type PlantPatchBody,
  PlantSchema,
  ref,
} from '../api/schemas.js'

interface PlantRoutesOptions {
  /** How long the outcome of a create with an Idempotency-Key is kept. */
  idempotencyTtlMs: number
  /** PATCH and DELETE without If-Match are refused (428). */
  requireIfMatch: boolean
}

function nextPageLink(query: ListQueryType, after: bigint): string {
  const tag = query.tag === undefined ? '' : `&tag=${encodeURIComponent(query.tag)}`
  const include = query.include === undefined ? '' : `&include=${query.include}`
  return `</plants?limit=${query.limit}&after=${after}${tag}${include}>; rel="next"`
}

/** The plant routes; registered inside a scope guarded by `guardWithToken`. */
export async function plantRoutes(app: FastifyInstance, { idempotencyTtlMs, requireIfMatch }: PlantRoutesOptions): Promise<void> {
  /** The request's If-Match and If-None-Match, or null without either; 428 when the service requires If-Match. */
  function preconditions(headers: { 'if-match'?: string; 'if-none-match'?: string }): Preconditions | null {
    const match = ifMatchOf(headers['if-match'])
    const noneMatch = ifNoneMatchOf(headers['if-none-match'])
    if (match === null && requireIfMatch) throw preconditionRequired()
    if (match === null && noneMatch === null) return null
    return { ...(match === null ? {} : { match }), ...(noneMatch === null ? {} : { noneMatch }) }
  }

  /**
   * Whether If-None-Match on a create names the plant that holds the id: `*` names it whoever owns
   * it (as 400 already exists would say); a tag, only the caller's own at that version.
   */
  async function namesExisting(plants: PlantRecords, id: bigint, absent: Versions, owner: string | null): Promise<boolean> {
    if (absent === '*') return true
    const found = await plants.get(id, owner)
    return found !== null && names(absent, found.version)
  }

  /**
   * The create of one plant: its version, or 'exists'. With a key, the kept outcome of an earlier
   * request may answer instead, with the plant's version now (null when it is gone).
   */
  async function create(
    plants: PlantRecords,
    plant: NewPlant,
    key: string | undefined,
    reply: FastifyReply,
  ): Promise<number | null | 'exists'> {
    if (key === undefined) return (await plants.create(plant)) ?? 'exists'
    const keptSince = new Date(Date.now() - idempotencyTtlMs)
    const result = await plants.createWithKey(plant, { key, fingerprint: fingerprint(plant), keptSince })
    if (result.outcome === 'in-flight') throw keyInFlight()
    if (result.outcome === 'mismatch') throw keyMismatch()
    if (result.replayed) reply.header('idempotent-replayed', 'true')
    return result.outcome === 'exists' ? 'exists' : result.version
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
          "With an Idempotency-Key, a retry of the same request within the key's lifetime gets the first answer again (200 or 400 already exists), with Idempotent-Replayed: true, and has no new effect. " +
          'With If-None-Match: *, a plant whose id exists is a 412 instead of a 400: the create is made only where no plant is.',
        headers: CreateHeaders,
        body: ref(NewPlantSchema),
        response: {
          200: response(
            "The plant was created and committed; Location names it. A replayed create's ETag is the plant's current one, absent when it has since been deleted",
            {
              body: PlantSchema,
              headers: { ...HEADERS.location, ...HEADERS.etag, ...HEADERS.replayed },
            },
          ),
          ...errorResponses([400, 409, 412, 422], {
            meanings: {
              412: 'If-Match names a tag (the plant list has none), or If-None-Match names the plant that already has this id; nothing was created',
            },
          }),
        },
      },
    },
    async (request, reply) => {
      const listTag = ifMatchOf(request.headers['if-match'])
      const absent = ifNoneMatchOf(request.headers['if-none-match'])
      if (listTag !== null && listTag !== '*') throw listHasNoTag('POST')
      const { id, name, tag } = request.body
      const key = idempotencyKey(request.headers['idempotency-key'])
      const principal = principalOf(request)
      const plant = { id, owner: principal.subject, name, tag: tag ?? null, traceParent: traceParentOf(request.traceSpan) }
      const version = await create(request.store.plants, plant, key, reply)
      if (version === 'exists') {
        if (absent !== null && (await namesExisting(request.store.plants, id, absent, visibleOwner(principal)))) throw plantExists(id)
        throw duplicatePlant(id)
      }
      reply.header('location', `/plants/${id}`)
      if (version !== null) reply.header('etag', etagOf(version))
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
          'Plants in ascending id order: the caller\'s own, or every plant for a token with plants:admin. When a page holds exactly `limit` (> 0) plants, a `Link: <…>; rel="next"` header gives the next page. ' +
          'With `include=id` each item carries its id first (a ListedPlant), so that a client can act on a listed plant. ' +
          'The list has no ETag: If-Match: * reads it, any tag is a 412; If-None-Match with tags never matches (200), * is a 304.',
        querystring: ListQuery,
        headers: ListConditionHeaders,
        response: {
          200: response('The plants in ascending id order, streamed when there are many', {
            body: {
              type: 'array',
              items: Type.Union([Type.Unsafe(ref(PlantSchema)), Type.Unsafe(ref(ListedPlantSchema))]),
              maxItems: 2147483647,
              examples: [[{ name: 'Monstera', tag: 'indoor' }, { name: 'Fern' }]],
            },
            headers: HEADERS.nextPage,
          }),
          304: response('If-None-Match is *, which names the list (it always exists); no body'),
          ...errorResponses([400, 412], { meanings: { 412: 'If-Match names a tag: the plant list has none; the list is not sent' } }),
        },
      },
    },
    async (request, reply) => {
      // The list has no entity tag (RFC 9110 13.1.1, 13.1.2): If-Match holds only as *, and
      // If-None-Match only * names it (the list always exists), so a poll with * is a 304.
      const listTag = ifMatchOf(request.headers['if-match'])
      const held = ifNoneMatchOf(request.headers['if-none-match'])
      if (listTag !== null && listTag !== '*') throw listHasNoTag('GET')
      if (held === '*') return reply.code(304).send()
      const query = request.query
      const { body, nextAfter } = await listPlants(
        request.store.plants,
        {
          owner: visibleOwner(principalOf(request)),
          tag: query.tag ?? null,
          after: query.after ?? null,
          upTo: null,
          ...(query.include === 'id' && { withId: true }),
        },
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
        description:
          'A plant of another owner is answered exactly as a missing one: 404. With If-None-Match naming the current ETag, 304 without a body: a poller whose copy is current reads nothing. ' +
          'With If-Match naming no current version, 412 without the plant (If-Match is evaluated first).',
        params: PlantIdParams,
        headers: ReadConditionHeaders,
        response: {
          200: response('The plant; ETag is its version', { body: PlantSchema, headers: HEADERS.etag }),
          304: response('If-None-Match names the current version: the copy the client holds is current; no body', {
            headers: HEADERS.etag,
          }),
          ...errorResponses([400, 404, 412], {
            meanings: { 412: 'If-Match names no current version of the plant (If-Match is evaluated first); the plant is not sent' },
          }),
        },
      },
    },
    async (request, reply) => {
      const wanted = ifMatchOf(request.headers['if-match'])
      const held = ifNoneMatchOf(request.headers['if-none-match'])
      const found = await request.store.plants.get(request.params.id, visibleOwner(principalOf(request)))
      if (found === null) throw plantNotFound(request.params.id)
      if (wanted !== null && !names(wanted, found.version)) throw readPreconditionFailed(request.params.id)
      reply.header('etag', etagOf(found.version))
      if (held !== null && names(held, found.version)) return reply.code(304).send()
      return found.plant
    },
  )

  // The merge-patch parser only where a merge patch is taken: POST /plants takes application/json alone.
  await app.register(async (patching) => {
    registerMergePatchParser(patching)
    patching.patch<{ Params: PlantIdParamsType; Body: PlantPatchBody }>(
      '/plants/:id',
      {
        config: { scope: 'plants:write' },
        schema: {
          operationId: 'updatePlant',
          summary: 'Change a plant',
          description:
            'A JSON merge patch (RFC 7396; application/merge-patch+json, or application/json meaning the same) of name and tag; tag: null removes the tag. ' +
            'With If-Match (the ETag you read), the change is made only while the plant is still at that version, else 412 and nothing changes: of two writers with one ETag, one wins. With If-None-Match, only while it is at none of those versions. ' +
            'A retry after a lost answer with the same If-Match answers 412: GET the plant to see whether the change is there. A patch that changes nothing answers 200 with the same ETag and sends no event. ' +
            'A plant of another owner is answered exactly as a missing one: 404.',
          consumes: ['application/merge-patch+json', 'application/json'],
          params: PlantIdParams,
          headers: WriteConditionHeaders,
          body: ref(PlantPatchSchema),
          response: {
            200: response('The plant after the change; ETag is its new version', { body: PlantSchema, headers: HEADERS.etag }),
            ...errorResponses([400, 404, 412, 428]),
          },
        },
      },
      async (request, reply) => {
        const condition = preconditions(request.headers)
        const { name, tag } = request.body
        const change = { ...(name === undefined ? {} : { name }), ...(tag === undefined ? {} : { tag }) }
        const owner = visibleOwner(principalOf(request))
        const result = await request.store.plants.update(request.params.id, owner, change, condition, traceParentOf(request.traceSpan))
        if (result.outcome === 'not-found') throw plantNotFound(request.params.id)
        if (result.outcome === 'precondition-failed') throw preconditionFailed(request.params.id)
        reply.header('etag', etagOf(result.version))
        return result.plant
      },
    )
  })

  app.delete<{ Params: PlantIdParamsType }>(
    '/plants/:id',
    {
      config: { scope: 'plants:write' },
      schema: {
        operationId: 'deletePlant',
        summary: 'Delete a plant',
        description:
          'A plant of another owner is answered exactly as a missing one: 404. With If-Match, the plant is deleted only while it is at that version; with If-None-Match, only while it is at none of those; else 412 and nothing changes.',
        params: PlantIdParams,
        headers: WriteConditionHeaders,
        response: {
          204: response('The plant was deleted; no body'),
          ...errorResponses([400, 404, 412, 428]),
        },
      },
    },
    async (request, reply) => {
      const condition = preconditions(request.headers)
      const { id } = request.params
      const owner = visibleOwner(principalOf(request))
      const traceParent = traceParentOf(request.traceSpan)
      if (condition === null) {
        if (!(await request.store.plants.delete(id, owner, traceParent))) throw plantNotFound(id)
      } else {
        const outcome = await request.store.plants.deleteIfMatch(id, owner, condition, traceParent)
        if (outcome === 'not-found') throw plantNotFound(id)
        if (outcome === 'precondition-failed') throw preconditionFailed(id)
      }
      return reply.code(204).send()
    },
  )
}
