/**
 * The webhook event types: each is one entry here (its name, the body a subscriber receives, and
 * its entry in the served document's `webhooks`) plus the SQL that writes it into the outbox,
 * whose rows carry the event's name.
 */

/** What an event is about: the plant as it was created. */
export interface PlantEventSubject {
  id: bigint
  name: string
  tag: string | null
}

export interface EventType<Subject, Name extends string = string> {
  /** The name of the event, in the outbox's `event` column and the document's `webhooks`. */
  name: Name
  /** The exact body a subscriber receives; ids are exact integer literals. */
  body(subject: Subject): string
  /** The document's path item for the event. */
  webhook: object
}

/** The header that names the event type of every delivery. */
export const EVENT_HEADER = 'plantstore-event'

const WEBHOOK_HEADER = (name: string, description: string, example: string) => ({
  in: 'header' as const,
  name,
  required: true,
  description,
  schema: { type: 'string' as const, maxLength: 200, examples: [example] },
})

/** The headers of every delivery: Standard Webhooks' three, and the event type's name. */
const deliveryHeaders = (event: string) => [
  WEBHOOK_HEADER(
    'webhook-id',
    'The id of this event for this subscription: the same on every retry',
    'msg_2b1f0c9e4a774b8e9a512d1f0c9e4a77',
  ),
  WEBHOOK_HEADER('webhook-timestamp', 'When this attempt was sent, in Unix seconds', '1795507200'),
  WEBHOOK_HEADER(
    'webhook-signature',
    "v1, and the base64 HMAC-SHA256 of '{webhook-id}.{webhook-timestamp}.{body}' keyed with the secret's bytes after whsec_; during a secret rotation's overlap, two space-separated entries",
    'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  ),
  {
    in: 'header' as const,
    name: EVENT_HEADER,
    required: true,
    description: 'The event type of the delivery',
    schema: { type: 'string' as const, enum: [event], examples: [event] },
  },
]

/** What a subscriber receives: declared as the source document of this API declares it. */
const NEW_PLANT_WEBHOOK = {
  post: {
    operationId: 'newPlant',
    summary: 'A plant was created',
    description:
      'Sent to each subscription (POST /webhooks) active when a plant was created, once the create is committed; at least once, so deduplicate by webhook-id. ' +
      'Verify webhook-signature on the raw body before parsing it (Standard Webhooks), and read the id without rounding: it is an int64. ' +
      'Any 2xx within WEBHOOK_TIMEOUT_MS is success; anything else is retried after WEBHOOK_RETRY_DELAYS (Retry-After may lengthen the wait), and 410 Gone disables the subscription. Redirects are not followed.',
    tags: ['webhooks'],
    security: [],
    parameters: deliveryHeaders('newPlant'),
    requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPlant' } } } },
    responses: {
      '200': { description: 'Received (any 2xx will do)' },
      '410': { description: 'Gone: the subscription is disabled and sent nothing more' },
    },
  },
}

export const NEW_PLANT: EventType<PlantEventSubject, 'newPlant'> = {
  name: 'newPlant',
  // The NewPlant of the API, written by hand so that the id is never a double.
  body(plant) {
    const tag = plant.tag === null ? '' : `,"tag":${JSON.stringify(plant.tag)}`
    return `{"id":${plant.id},"name":${JSON.stringify(plant.name)}${tag}}`
  },
  webhook: NEW_PLANT_WEBHOOK,
}

/** What a deletion is about: the id of the plant that was deleted. */
export interface DeletedPlantSubject {
  id: bigint
}

const PLANT_DELETED_WEBHOOK = {
  post: {
    operationId: 'plantDeleted',
    summary: 'A plant was deleted',
    description:
      "Sent to each active subscription that asked for plantDeleted (events) and covers the plant's owner, once a delete answered 204 is committed; never for a refused delete. " +
      'The body is the id of the deleted plant, an int64: read it without rounding. Signed, retried and deduplicated by webhook-id as newPlant is. ' +
      'Events of one plant may arrive in any order.',
    tags: ['webhooks'],
    security: [],
    parameters: deliveryHeaders('plantDeleted'),
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['id'],
            properties: {
              // The served text writes these bounds exactly (http/document.ts, documentText).
              id: { type: 'integer', format: 'int64', minimum: -(2 ** 63), maximum: 2 ** 63, description: 'The id of the deleted plant' },
            },
            examples: [{ id: 4815162342 }],
          },
        },
      },
    },
    responses: NEW_PLANT_WEBHOOK.post.responses,
  },
}

export const PLANT_DELETED: EventType<DeletedPlantSubject, 'plantDeleted'> = {
  name: 'plantDeleted',
  body: (plant) => `{"id":${plant.id}}`,
  webhook: PLANT_DELETED_WEBHOOK,
}

const PLANT_UPDATED_WEBHOOK = {
  post: {
    operationId: 'plantUpdated',
    summary: 'A plant was changed',
    description:
      "Sent to each active subscription that asked for plantUpdated (events) and covers the plant's owner, once a PATCH that changed the plant is committed; never for a refused or a no-op PATCH. " +
      'The body is the plant after the change, with its id: read the id without rounding. Signed, retried and deduplicated by webhook-id as newPlant is. ' +
      'Events of one plant may arrive in any order: compare with GET /plants/{id} (its ETag is the version) when order matters.',
    tags: ['webhooks'],
    security: [],
    parameters: deliveryHeaders('plantUpdated'),
    requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPlant' } } } },
    responses: NEW_PLANT_WEBHOOK.post.responses,
  },
}

/** A change is about the plant as it is after it: the same body as a new plant's. */
export const PLANT_UPDATED: EventType<PlantEventSubject, 'plantUpdated'> = {
  name: 'plantUpdated',
  body: NEW_PLANT.body,
  webhook: PLANT_UPDATED_WEBHOOK,
}

export const EVENT_TYPES = [NEW_PLANT, PLANT_DELETED, PLANT_UPDATED] as const

/** What POST /webhooks/{id}/ping sends: no subscription asks for it, every one may get it. */
export const PING_WEBHOOK: object = {
  post: {
    operationId: 'ping',
    summary: 'A ping of the subscription',
    description:
      'Sent when POST /webhooks/{id}/ping asks for it, also while the subscription is disabled: to test an endpoint. Signed, retried and logged as the other events are.',
    tags: ['webhooks'],
    security: [],
    parameters: deliveryHeaders('ping'),
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['subscription'],
            properties: { subscription: { type: 'string', maxLength: 100, description: 'The id of the subscription pinged' } },
            examples: [{ subscription: 'wh_4fQ2r9LwXb1kN7sTz3aVyQ' }],
          },
        },
      },
    },
    responses: NEW_PLANT_WEBHOOK.post.responses,
  },
}

/** The event types a subscription may ask for: those of the catalogue. */
export type EventName = (typeof EVENT_TYPES)[number]['name']
export const EVENT_NAMES: readonly EventName[] = EVENT_TYPES.map((event) => event.name)
/** What a subscription gets when it names no events. */
export const DEFAULT_EVENTS: readonly EventName[] = ['newPlant']
