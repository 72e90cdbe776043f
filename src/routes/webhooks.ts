import { randomBytes } from 'node:crypto'
import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { principalOf, visibleOwner } from '../auth/principal.js'
import type { WebhookConfig } from '../config/config.js'
import { badRequest, subscriptionHasNoTag, subscriptionNotFound } from '../http/errors.js'
import type { Subscription } from '../store/subscriptions.js'
import { AddressPolicy } from '../webhooks/address-policy.js'
import { newSecret, sealSecret } from '../webhooks/secrets.js'
import { NOT_FOUND, errorResponses, response } from '../api/responses.js'
import {
  CreatedSubscriptionSchema,
  NewSubscriptionSchema,
  type NewSubscriptionBody,
  NoConditionHeaders,
  SubscriptionIdParams,
  type SubscriptionIdParamsType,
  RotatedSecretSchema,
  SubscriptionPatchSchema,
  type SubscriptionPatchBody,
  SubscriptionSchema,
  type SubscriptionBody,
  ref,
} from '../api/schemas.js'
import { DEFAULT_EVENTS } from '../api/events.js'
import { registerMergePatchParser } from '../http/json-body.js'

interface WebhookRoutesOptions {
  config: WebhookConfig
}

/** Subscriptions one subject may have; each costs an outbox row per event it receives. */
export const SUBSCRIPTIONS_PER_SUBJECT = 25

function shown(subscription: Subscription): SubscriptionBody {
  const { id, url, events, allPlants, createdAt, disabledAt, disabledReason } = subscription
  return {
    id,
    url,
    events,
    allPlants,
    enabled: disabledAt === null,
    disabledReason: disabledAt === null ? null : disabledReason,
    createdAt: createdAt.toISOString(),
    status: disabledAt === null ? 'active' : 'disabled',
  }
}

/** A subscription has no version to compare: a condition on its write is refused, never ignored. */
function refuseConditions(headers: { 'if-match'?: string; 'if-none-match'?: string }): void {
  for (const header of ['if-match', 'if-none-match'] as const) {
    if (headers[header] !== undefined) throw subscriptionHasNoTag(header === 'if-match' ? 'If-Match' : 'If-None-Match')
  }
}

/** The routes that manage webhook subscriptions; registered inside a scope guarded by `guardWithToken`. */
export async function webhookRoutes(app: FastifyInstance, { config }: WebhookRoutesOptions): Promise<void> {
  const policy = new AddressPolicy(config.allowedNetworks)

  app.post<{ Body: NewSubscriptionBody }>(
    '/webhooks',
    {
      config: { scope: 'webhooks:manage' },
      schema: {
        operationId: 'createSubscription',
        summary: 'Subscribe to plant events',
        description:
          'Each event from now on of the types in events (default newPlant; also plantDeleted) is POSTed to the URL (see webhooks), signed per Standard Webhooks with the secret of this answer, which is shown only here. ' +
          "A token with plants:admin subscribes to every new plant, any other to its subject's own. The URL's host must be, and resolve to, a public address.",
        body: ref(NewSubscriptionSchema),
        response: {
          201: response('The subscription was made; Location names it', {
            body: CreatedSubscriptionSchema,
            headers: { Location: Type.String({ maxLength: 60, description: 'The path of the subscription: /webhooks/{id}' }) },
          }),
          ...errorResponses([400]),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request)
      const refusal = await policy.refusal(request.body.url)
      if (refusal !== null) throw badRequest(refusal)
      const id = `wh_${randomBytes(16).toString('base64url')}`
      const secret = newSecret()
      const made = await request.store.subscriptions.create(
        {
          id,
          subject: principal.subject,
          allPlants: visibleOwner(principal) === null,
          url: request.body.url,
          events: request.body.events ?? [...DEFAULT_EVENTS],
          secret: sealSecret(secret, config.secretKey),
        },
        SUBSCRIPTIONS_PER_SUBJECT,
      )
      if (made === null) {
        throw badRequest(`a subject may have at most ${SUBSCRIPTIONS_PER_SUBJECT} webhook subscriptions; delete one first`)
      }
      reply.code(201).header('location', `/webhooks/${id}`)
      return { ...shown(made), secret }
    },
  )

  app.get(
    '/webhooks',
    {
      config: { scope: 'webhooks:manage' },
      schema: {
        operationId: 'listSubscriptions',
        summary: 'List webhook subscriptions',
        description:
          "The caller's subscriptions, oldest first; every subscription for a token with plants:admin. Secrets are never shown again.",
        response: {
          200: response('The subscriptions', {
            body: { type: 'array', items: ref(SubscriptionSchema), maxItems: 10_000, examples: [SubscriptionSchema.examples] },
          }),
          ...errorResponses([]),
        },
      },
    },
    async (request) => (await request.store.subscriptions.list(visibleOwner(principalOf(request)))).map(shown),
  )

  app.delete<{ Params: SubscriptionIdParamsType }>(
    '/webhooks/:id',
    {
      config: { scope: 'webhooks:manage' },
      schema: {
        operationId: 'deleteSubscription',
        summary: 'Delete a webhook subscription',
        description:
          "No event is sent to it any more, pending retries included, and its deliveries log goes with it. Another subject's subscription is answered exactly as a missing one: 404.",
        params: SubscriptionIdParams,
        headers: NoConditionHeaders,
        response: {
          204: response('The subscription was deleted; no body'),
          ...errorResponses([400, 404], { meanings: NOT_FOUND.subscription }),
        },
      },
    },
    async (request, reply) => {
      refuseConditions(request.headers)
      if (!(await request.store.subscriptions.delete(request.params.id, visibleOwner(principalOf(request)))))
        throw subscriptionNotFound(request.params.id)
      return reply.code(204).send()
    },
  )

  app.get<{ Params: SubscriptionIdParamsType }>(
    '/webhooks/:id',
    {
      config: { scope: 'webhooks:manage' },
      schema: {
        operationId: 'getSubscription',
        summary: 'Get a webhook subscription',
        description: "Never its secret. Another subject's subscription is answered exactly as a missing one: 404.",
        params: SubscriptionIdParams,
        response: {
          200: response('The subscription', { body: SubscriptionSchema }),
          ...errorResponses([400, 404], { meanings: NOT_FOUND.subscription }),
        },
      },
    },
    async (request) => {
      const subscription = await request.store.subscriptions.get(request.params.id, visibleOwner(principalOf(request)))
      if (subscription === null) throw subscriptionNotFound(request.params.id)
      return shown(subscription)
    },
  )

  await app.register(async (patching) => {
    registerMergePatchParser(patching)
    patching.patch<{ Params: SubscriptionIdParamsType; Body: SubscriptionPatchBody }>(
      '/webhooks/:id',
      {
        config: { scope: 'webhooks:manage' },
        schema: {
          operationId: 'updateSubscription',
          summary: 'Change a webhook subscription',
          description:
            'Changes url (checked as on create), events or enabled, as application/json or application/merge-patch+json; any other field or a bad value is a 400 and changes nothing. ' +
            'While disabled a subscription receives no event but a ping (none is written for it; its pending ones fail, and can be recovered once it is enabled again; redeliver and recover answer 409 meanwhile). ' +
            'An attempt under way when it is disabled is logged as it ended. enabled: true turns it back on for events from then on.',
          consumes: ['application/json', 'application/merge-patch+json'],
          params: SubscriptionIdParams,
          headers: NoConditionHeaders,
          body: ref(SubscriptionPatchSchema),
          response: {
            200: response('The subscription as it is now', { body: SubscriptionSchema }),
            ...errorResponses([400, 404], { meanings: NOT_FOUND.subscription }),
          },
        },
      },
      async (request) => {
        refuseConditions(request.headers)
        const { url, events, enabled } = request.body
        if (url !== undefined) {
          const refusal = await policy.refusal(url)
          if (refusal !== null) throw badRequest(refusal)
        }
        const change = {
          ...(url === undefined ? {} : { url }),
          ...(events === undefined ? {} : { events }),
          ...(enabled === undefined ? {} : { enabled }),
        }
        const subscription = await request.store.subscriptions.update(request.params.id, visibleOwner(principalOf(request)), change)
        if (subscription === null) throw subscriptionNotFound(request.params.id)
        return shown(subscription)
      },
    )
  })

  app.post<{ Params: SubscriptionIdParamsType }>(
    '/webhooks/:id/rotate-secret',
    {
      config: { scope: 'webhooks:manage' },
      schema: {
        operationId: 'rotateSecret',
        summary: "Rotate a subscription's secret",
        description:
          'A new secret, shown only here, signs every delivery from now on. Until previousSecretExpiresAt (WEBHOOK_SECRET_OVERLAP later) the previous one signs too: ' +
          'webhook-signature then holds two space-separated v1 entries, and a receiver may verify with either. A rotation during an overlap drops the oldest: at most two secrets sign.',
        params: SubscriptionIdParams,
        response: {
          200: response('The new secret', { body: RotatedSecretSchema }),
          ...errorResponses([400, 404], { meanings: NOT_FOUND.subscription }),
        },
      },
    },
    async (request) => {
      const secret = newSecret()
      const previousSecretExpiresAt = new Date(Date.now() + config.secretOverlapMs)
      const subject = visibleOwner(principalOf(request))
      if (
        !(await request.store.subscriptions.rotateSecret(
          request.params.id,
          subject,
          sealSecret(secret, config.secretKey),
          previousSecretExpiresAt,
        ))
      ) {
        throw subscriptionNotFound(request.params.id)
      }
      return { secret, previousSecretExpiresAt: previousSecretExpiresAt.toISOString() }
    },
  )
}
