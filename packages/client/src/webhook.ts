import { createHmac, timingSafeEqual } from 'node:crypto'
import { bigintOf, objectOf, parseJson, stringOf } from './json.js'
import type { webhooks } from './generated/openapi.js'
import type { NewPlant } from './types.js'

/** A webhook that is not from the service, was altered, or is too old to trust. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError'
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>

/** A header by its lowercase name; in a plain object, under any case (Webhook-Id as webhook-id). */
function header(headers: HeaderSource, name: string): string {
  const key = headers instanceof Headers ? name : Object.keys(headers).find((candidate) => candidate.toLowerCase() === name)
  const value = headers instanceof Headers ? headers.get(name) : key === undefined ? undefined : [headers[key]].flat()[0]
  if (value === undefined || value === null || value === '') throw new WebhookVerificationError(`the ${name} header is missing`)
  return value
}

/** The HMAC key of a `whsec_…` secret: the base64 after the prefix. */
function keyOf(secret: string): Buffer {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret
  const key = Buffer.from(encoded, 'base64')
  if (key.length === 0) throw new WebhookVerificationError('the secret is not a whsec_ secret')
  return key
}

/** Checks the signature (any v1 entry may match: two sign during a secret's rotation) and the timestamp; answers the body's text. */
function verifiedBody(rawBody: string | Uint8Array, headers: HeaderSource, secret: string, toleranceSeconds: number, now: number): string {
  const id = header(headers, 'webhook-id')
  const timestamp = header(headers, 'webhook-timestamp')
  const signatures = header(headers, 'webhook-signature')
  if (!/^[0-9]{1,15}$/.test(timestamp)) throw new WebhookVerificationError('the webhook-timestamp header is not a time')
  if (Math.abs(now / 1000 - Number(timestamp)) > toleranceSeconds)
    throw new WebhookVerificationError('the webhook is too old or too far in the future')
  const body = Buffer.from(rawBody)
  const expected = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.`).update(body).digest()
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2)
    if (version !== 'v1' || signature === undefined) return false
    const given = Buffer.from(signature, 'base64')
    return given.length === expected.length && timingSafeEqual(given, expected)
  })
  if (!matches) throw new WebhookVerificationError('no signature matches')
  return body.toString('utf8')
}

function plantOf(text: string): NewPlant {
  const plant = objectOf(parseJson(text), 'the webhook body')
  const newPlant: NewPlant = { id: bigintOf(plant.id, 'id'), name: stringOf(plant.name, 'name') }
  if (plant.tag !== undefined) newPlant.tag = stringOf(plant.tag, 'tag')
  return newPlant
}

interface VerifyOptions {
  toleranceSeconds?: number
  now?: number
}

/**
 * Checks a `newPlant` webhook per Standard Webhooks (signature over the raw body, timestamp
 * within `toleranceSeconds`) and returns its plant with an exact bigint id. Throws
 * WebhookVerificationError otherwise, and for any other event type (a plantUpdated body reads
 * the same). Pass the body exactly as received, before any parsing. The plantstore-event header
 * is not signed: it says which type the sender claims, the signature only that the body is the
 * service's.
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: HeaderSource, secret: string, options: VerifyOptions = {}): NewPlant {
  const text = verifiedBody(rawBody, headers, secret, options.toleranceSeconds ?? 300, options.now ?? Date.now())
  const type = header(headers, 'plantstore-event')
  if (type !== 'newPlant') throw new WebhookVerificationError(`the event is ${type}, not a newPlant: use verifyWebhookEvent`)
  try {
    return plantOf(text)
  } catch (error) {
    throw new WebhookVerificationError(`the webhook body is not a plant: ${(error as Error).message}`, { cause: error })
  }
}

/**
 * How each event type's body reads. The keys must be exactly the served document's `webhooks`,
 * which the service writes from its catalogue of event types (and the client's types are
 * generated from it): a new event type fails the client's build until it is read here.
 */
const READERS = {
  newPlant: (text: string) => ({ plant: plantOf(text) }),
  plantUpdated: (text: string) => ({ plant: plantOf(text) }),
  plantDeleted: (text: string) => ({ id: bigintOf(objectOf(parseJson(text), 'the webhook body').id, 'id') }),
  ping: (text: string) => ({ subscription: stringOf(objectOf(parseJson(text), 'the webhook body').subscription, 'subscription') }),
} satisfies Record<keyof webhooks, (text: string) => object>

/** The event types the service sends, named by the plantstore-event header. */
export type WebhookEventType = keyof typeof READERS

/** A verified delivery: what happened, with exact bigint ids. */
export type WebhookEvent = { [Type in WebhookEventType]: { type: Type } & ReturnType<(typeof READERS)[Type]> }[WebhookEventType]

/** Every event type the service sends. */
export const WEBHOOK_EVENT_TYPES = Object.keys(READERS) as readonly WebhookEventType[]

const isEventType = (type: string): type is WebhookEventType => Object.hasOwn(READERS, type)

/**
 * Checks any delivery (each of WEBHOOK_EVENT_TYPES, named by its plantstore-event header) as
 * verifyWebhook does, accepting it when any v1 entry of webhook-signature verifies, and returns
 * what it says. Throws WebhookVerificationError otherwise. The type header is not signed: a
 * plantUpdated body resent under `newPlant` still verifies; key on webhook-id to deduplicate.
 */
export function verifyWebhookEvent(
  rawBody: string | Uint8Array,
  headers: HeaderSource,
  secret: string,
  options: VerifyOptions = {},
): WebhookEvent {
  const text = verifiedBody(rawBody, headers, secret, options.toleranceSeconds ?? 300, options.now ?? Date.now())
  const type = header(headers, 'plantstore-event')
  if (!isEventType(type)) throw new WebhookVerificationError(`the event type ${type} is unknown`)
  try {
    return { type, ...READERS[type](text) } as WebhookEvent
  } catch (error) {
    throw new WebhookVerificationError(`the ${type} body is not understood: ${(error as Error).message}`, { cause: error })
  }
}
