import { randomBytes } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { HEADERS, NOT_FOUND, errorResponses, response } from '../api/responses.js'
import { traceParentOf } from '../observability/trace-context.js'
import {
  DeliveriesQuery,
  type DeliveriesQueryType,
  DeliveryParams,
  type DeliveryParamsType,
  DeliverySchema,
  PingSchema,
  type RecoverBody,
  RecoverSchema,
  RequeuedSchema,
  SubscriptionIdParams,
  type SubscriptionIdParamsType,
  ref,
} from '../api/schemas.js'
import { principalOf, visibleOwner } from '../auth/principal.js'
import { eventNotFound, subscriptionDisabled, subscriptionNotFound } from '../http/errors.js'
import type { DeliveryRecord } from '../store/deliveries.js'

const DEFAULT_PAGE = 50

/** What a 409 of redeliver and recover means. */
const DISABLED = { 409: 'The subscription is disabled: nothing is sent to it but a ping; enable it first (PATCH enabled: true)' }

/** A log entry as the API shows it: `plantId` is absent for a ping. */
function shown(record: DeliveryRecord) {
  const iso = (time: Date | null) => (time === null ? null : time.toISOString())
  return {
    id: record.messageId,
    event: record.event,
    ...(record.plantId === null ? {} : { plantId: record.plantId }),
    state: record.state,
    attempts: record.attempts,
    createdAt: record.createdAt.toISOString(),
    lastAttemptAt: iso(record.lastAttemptAt),
    nextAttemptAt: iso(record.nextAttemptAt),
    lastStatus: record.lastStatus,
    lastError: record.lastError,
  }
}

/**
 * What a subscriber can see and fix after an outage: the deliveries log, redelivering one
 * event, recovering every failed one since a time, and a ping to test the endpoint.
 */
export async function webhookDeliveryRoutes(app: FastifyInstance): Promise<void> {
  /** The subscription's id once the caller may reach it; 404 exactly as a missing one otherwise. */
  async function reachable(request: FastifyRequest<{ Params: { id: string } }>): Promise<string> {
    const subscription = await request.store.subscriptions.get(request.params.id, visibleOwner(principalOf(request)))
    if (subscription === null) throw subscriptionNotFound(request.params.id)
    return subscription.id
  }

  app.get<{ Params: SubscriptionIdParamsType; Querystring: DeliveriesQueryType }>(
    '/webhooks/:id/deliveries',
    {
      config: { scope: 'webhooks:manage' },
      schema: {
        operationId: 'listDeliveries',
        summary: "A subscription's deliveries log",
        description:
          'Its events, newest first, with their state, attempts and last answer; kept for WEBHOOK_RETENTION after they finish. ' +
          'When more exist, a Link header rel="next" gives the next page: follow it as given.',
        params: SubscriptionIdParams,
        querystring: DeliveriesQuery,
        response: {
          200: response('The events, newest first', {
            body: { type: 'array', items: ref(DeliverySchema), maxItems: 250, examples: [DeliverySchema.examples] },
            headers: HEADERS.nextPage,
          }),
          ...errorResponses([400, 404], { meanings: NOT_FOUND.subscription }),
        },
      },
    },
    async (request, reply) => {
      const id = await reachable(request)
      const limit = request.query.limit ?? DEFAULT_PAGE
      const records = await request.store.deliveries.list(id, request.query.before ?? null, limit)
      const last = records.at(-1)
      if (records.length === limit && last !== undefined) {
        reply.header('link', `</webhooks/${encodeURIComponent(id)}/deliveries?limit=${limit}&before=${last.rowId}>; rel="next"`)
      }
      return records.map(shown)
    },
  )

  app.post<{ Params: DeliveryParamsType }>(
    '/webhooks/:id/deliveries/:webhookId/redeliver',
    {
      config: { scope: 'webhooks:manage' },
      schema: {
        operationId: 'redeliverEvent',
        summary: 'Send one event again',
        description:
          'The event is due again now, with the same webhook-id and body, and a new round of retries, whether it was delivered, failed or pending: ' +
          'one whose attempt is under way (a receiver may ask the instant it got the body) is sent once more after that attempt. ' +
          'Its attempts are kept: the log counts every attempt made, and the retry schedule starts again from this one. ' +
          'An unknown webhook-id, or one of another subscription: 404. While the subscription is disabled: 409, and nothing is sent.',
        params: DeliveryParams,
        response: {
          202: response('The event is due again; its deliveries log shows the attempts'),
          ...errorResponses([400, 404, 409], { meanings: { ...NOT_FOUND.event, ...DISABLED } }),
        },
      },
    },
    async (request, reply) => {
      const id = await reachable(request)
      const outcome = await request.store.deliveries.redeliver(id, request.params.webhookId)
      if (outcome === 'unknown') throw eventNotFound(id, request.params.webhookId)
      if (outcome === 'disabled') throw subscriptionDisabled(id)
      return reply.code(202).send()
    },
  )

  app.post<{ Params: SubscriptionIdParamsType; Body: RecoverBody }>(
    '/webhooks/:id/recover',
    {
      config: { scope: 'webhooks:manage' },
      schema: {
        operationId: 'recoverEvents',
        summary: 'Send failed events again',
        description:
          'Every failed event of the subscription written at or after since is due again now, with its webhook-id and body, and a new round of retries: after an outage of the endpoint, nothing is lost for good. ' +
          'While the subscription is disabled: 409, and nothing is sent (enable it first).',
        params: SubscriptionIdParams,
        body: ref(RecoverSchema),
        response: {
          202: response('How many events are due again', { body: RequeuedSchema }),
          ...errorResponses([400, 404, 409], { meanings: { ...NOT_FOUND.subscription, ...DISABLED } }),
        },
      },
    },
    async (request, reply) => {
      const id = await reachable(request)
      const recovered = await request.store.deliveries.recover(id, new Date(request.body.since))
      if (recovered === 'disabled') throw subscriptionDisabled(id)
      return reply.code(202).send(recovered)
    },
  )

  app.post<{ Params: SubscriptionIdParamsType }>(
    '/webhooks/:id/ping',
    {
      config: { scope: 'webhooks:manage' },
      schema: {
        operationId: 'pingSubscription',
        summary: 'Send a ping event',
        description:
          'A ping event with the body {"subscription": "<id>"} is sent, signed, retried and logged like any event; also while the subscription is disabled, to test a mended endpoint.',
        params: SubscriptionIdParams,
        response: {
          202: response('The ping is due now; its webhook-id', { body: PingSchema }),
          ...errorResponses([400, 404], { meanings: NOT_FOUND.subscription }),
        },
      },
    },
    async (request, reply) => {
      const id = await reachable(request)
      const messageId = `msg_${randomBytes(16).toString('hex')}`
      // A subscription deleted since it was found gets no ping: 404, as if the request had come after.
      if (
        !(await request.store.deliveries.queuePing(id, messageId, JSON.stringify({ subscription: id }), traceParentOf(request.traceSpan)))
      ) {
        throw subscriptionNotFound(id)
      }
      return reply.code(202).send({ id: messageId })
    },
  )
}
