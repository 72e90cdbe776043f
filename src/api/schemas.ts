import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { EVENT_NAMES } from './events.js'

/**
 * A JSON integer in the signed 64-bit range, kept exact as a bigint. Request bodies and URLs
 * carry it as an integer literal; see validation.ts for how it is checked. The bounds are
 * doubles here (2^63 is the nearest to 2^63 − 1); the validator keeps to the exact range, and
 * the served document writes them exactly (see document.ts).
 */
export const int64 = (description: string, examples: number[]) =>
  Type.Unsafe<bigint>(Type.Integer({ format: 'int64', minimum: -(2 ** 63), maximum: 2 ** 63, description, examples }))

/** Longest Error message; a longer one (a long URL quoted back, say) is cut to this. */
export const MESSAGE_MAX_LENGTH = 1000

export const ErrorSchema = Type.Object(
  {
    error: Type.Integer({ format: 'int32', minimum: 400, maximum: 599, description: 'The HTTP status code of the response' }),
    message: Type.String({ maxLength: MESSAGE_MAX_LENGTH, description: 'What went wrong, for a human' }),
  },
  {
    $id: 'Error',
    title: 'Error',
    description: 'The body of every error response, on every path',
    examples: [{ error: 400, message: 'plant 7 already exists' }],
  },
)

export const PlantSchema = Type.Object(
  {
    name: Type.String({ maxLength: 200, description: 'The name of the plant' }),
    tag: Type.Optional(Type.String({ maxLength: 100, description: 'Tag to specify the type; absent when the plant has none' })),
  },
  {
    $id: 'Plant',
    title: 'Plant',
    description: 'A plant as the API returns it (its id is in its URL)',
    examples: [{ name: 'Monstera', tag: 'indoor' }],
  },
)
/** The Plant of the API: `tag` is absent when the plant has none. */
export type Plant = Static<typeof PlantSchema>

export const ListedPlantSchema = Type.Object(
  {
    id: int64('The id of the plant, an exact integer literal', [7]),
    name: PlantSchema.properties.name,
    tag: PlantSchema.properties.tag,
  },
  {
    $id: 'ListedPlant',
    title: 'ListedPlant',
    description: 'A plant in a list asked for with `include=id`: its id first, then the Plant',
    examples: [{ id: 7, name: 'Monstera', tag: 'indoor' }],
  },
)

// U+0000 is refused because PostgreSQL cannot keep it in text: both stores accept the same names.
const NAME_PATTERN = '^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$'
const TAG_PATTERN = '^[^\\u0000]*$'

/** What a failed `pattern` means, in words: the validator's message would quote the expression. */
export const PATTERN_MEANINGS: Readonly<Record<string, string>> = {
  [NAME_PATTERN]: 'must contain a character other than white space, and no U+0000',
  [TAG_PATTERN]: 'must not contain U+0000',
}

export const NewPlantSchema = Type.Object(
  {
    id: int64('Identification number of the plant, unique in the store; every int64 is kept exactly', [7]),
    name: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: NAME_PATTERN,
      description: 'The name of the plant: 1 to 200 characters (Unicode code points), not only white space, without U+0000',
    }),
    tag: Type.Optional(
      Type.String({
        maxLength: 100,
        pattern: TAG_PATTERN,
        description: 'Tag to specify the type: 0 to 100 characters, without U+0000',
      }),
    ),
  },
  {
    $id: 'NewPlant',
    title: 'NewPlant',
    description: 'A plant to create. Other properties are ignored and not stored.',
    examples: [{ id: 7, name: 'Monstera', tag: 'indoor' }],
  },
)
export type NewPlantBody = Static<typeof NewPlantSchema>

export const PlantPatchSchema = Type.Object(
  {
    name: Type.Optional(NewPlantSchema.properties.name),
    tag: Type.Optional(
      Type.Union([NewPlantSchema.properties.tag, Type.Null()], {
        description: 'The new tag: 0 to 100 characters, without U+0000; null removes the tag',
      }),
    ),
  },
  {
    $id: 'PlantPatch',
    title: 'PlantPatch',
    description:
      'What to change in a plant: a JSON merge patch (RFC 7396) of name and tag. Any other member, id included, is a 400; {} changes nothing.',
    additionalProperties: false,
    examples: [{ tag: null }, { name: 'Monstera deliciosa', tag: 'living room' }],
  },
)
export type PlantPatchBody = Static<typeof PlantPatchSchema>

/** A strong entity tag: the plant's version, quoted. */
const ETAG_LIST = (description: string) => Type.String({ minLength: 1, maxLength: 1000, description, examples: ['"3"'] })

export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(
    ETAG_LIST(
      'Write only while the plant is at one of these versions: strong tags from ETag ("3"), comma-separated, or * (any version). Otherwise 412 and nothing changes. A malformed value (3 without quotes) is a 400.',
    ),
  ),
})

/** The conditions of PATCH and DELETE: both must hold when both are sent (RFC 9110 section 13.2.2). */
export const WriteConditionHeaders = Type.Object({
  'if-match': IfMatchHeaders.properties['if-match'],
  'if-none-match': Type.Optional(
    ETAG_LIST(
      'Write only while the plant is at none of these versions (W/"3" names "3"); * never writes, the plant being there. Otherwise 412 and nothing changes. A malformed value is a 400.',
    ),
  ),
})

/** The conditions of GET /plants/{id}: If-Match first, then If-None-Match (RFC 9110 section 13.2.2). */
export const ReadConditionHeaders = Type.Object({
  // Its example is *, which reads any version: the docs page's "Try it out" sends the example.
  'if-match': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1000,
      description:
        'Read only while the plant is at one of these versions: strong tags from ETag ("3"), comma-separated, or * (any version). Otherwise 412 without the plant; evaluated before If-None-Match. A malformed value is a 400.',
      examples: ['*'],
    }),
  ),
  'if-none-match': Type.Optional(
    ETAG_LIST(
      'The ETag of the copy the client holds ("3", or several, or *): 304 without a body while it is still current; a malformed value is a 400',
    ),
  ),
})

const NO_TAG = (header: string) =>
  Type.String({
    maxLength: 1000,
    description: `Refused: a webhook subscription has no entity tag, so ${header} cannot be evaluated; any value is a 400 and nothing changes`,
  })

/** PATCH and DELETE /webhooks/{id}: declared so that a client sees the conditions are refused, not ignored. */
export const NoConditionHeaders = Type.Object({
  'if-match': Type.Optional(NO_TAG('If-Match')),
  'if-none-match': Type.Optional(NO_TAG('If-None-Match')),
})

export const StatusSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('ready')], {
      description: 'ok: the process serves; ready: the database answers too',
    }),
  },
  { $id: 'Status', title: 'Status', examples: [{ status: 'ready' }] },
)

const SUBSCRIPTION_URL = Type.String({
  minLength: 1,
  maxLength: 2048,
  format: 'uri',
  pattern: TAG_PATTERN,
  description:
    'Where each new plant is POSTed: an absolute http or https URL whose host is (and resolves to) a public address, unless WEBHOOK_ALLOWED_NETWORKS allows it',
  examples: ['https://hooks.example.com/plantstore'],
})

const EVENT_NAMES_SCHEMA = Type.Array(Type.Union(EVENT_NAMES.map((name) => Type.Literal(name))), {
  minItems: 1,
  maxItems: EVENT_NAMES.length,
  uniqueItems: true,
  description: `The event types sent to the subscription: one or more of ${EVENT_NAMES.join(', ')}`,
  examples: [['newPlant', 'plantDeleted']],
})

export const NewSubscriptionSchema = Type.Object(
  {
    url: SUBSCRIPTION_URL,
    events: Type.Optional({ ...EVENT_NAMES_SCHEMA, description: 'The event types to send; absent: newPlant only' }),
  },
  {
    $id: 'NewSubscription',
    title: 'NewSubscription',
    description: 'A webhook subscription to make',
    examples: [{ url: 'https://hooks.example.com/plantstore' }],
  },
)
export type NewSubscriptionBody = Static<typeof NewSubscriptionSchema>

const subscriptionProperties = {
  id: Type.String({
    maxLength: 40,
    pattern: '^wh_[A-Za-z0-9_-]+$',
    description: 'The id of the subscription',
    examples: ['wh_4fQ2r9LwXb1kN7sTz3aVyQ'],
  }),
  url: SUBSCRIPTION_URL,
  events: EVENT_NAMES_SCHEMA,
  allPlants: Type.Boolean({ description: "true when made with plants:admin: every plant, whoever owns it; else the subject's own" }),
  enabled: Type.Boolean({ description: 'false once disabled (410 Gone, or PATCH enabled: false): no event is written for it meanwhile' }),
  disabledReason: Type.Union([Type.String({ maxLength: 400 }), Type.Null()], { description: 'Why it was disabled; null while enabled' }),
  createdAt: Type.String({ format: 'date-time', maxLength: 40, description: 'When the subscription was made' }),
  status: Type.Union([Type.Literal('active'), Type.Literal('disabled')], {
    description: 'active while enabled, else disabled (as enabled says; kept for earlier clients)',
  }),
}

const SUBSCRIPTION_EXAMPLE = {
  id: 'wh_4fQ2r9LwXb1kN7sTz3aVyQ',
  url: 'https://hooks.example.com/plantstore',
  events: ['newPlant'],
  allPlants: false,
  enabled: true,
  disabledReason: null,
  createdAt: '2026-11-24T08:00:00.000Z',
  status: 'active',
}

export const SubscriptionPatchSchema = Type.Object(
  {
    url: Type.Optional(SUBSCRIPTION_URL),
    events: Type.Optional(EVENT_NAMES_SCHEMA),
    enabled: Type.Optional(Type.Boolean({ description: 'true turns a disabled subscription back on, for events from then on' })),
  },
  {
    $id: 'SubscriptionPatch',
    title: 'SubscriptionPatch',
    description: 'What to change in a subscription (a JSON merge patch of url, events and enabled); any other field is a 400',
    additionalProperties: false,
    minProperties: 1,
    examples: [{ enabled: true }],
  },
)
export type SubscriptionPatchBody = Static<typeof SubscriptionPatchSchema>

export const SubscriptionSchema = Type.Object(subscriptionProperties, {
  $id: 'Subscription',
  title: 'Subscription',
  description: 'A webhook subscription; its secret is shown only when it is made',
  examples: [SUBSCRIPTION_EXAMPLE],
})
export type SubscriptionBody = Static<typeof SubscriptionSchema>

export const CreatedSubscriptionSchema = Type.Object(
  {
    ...subscriptionProperties,
    secret: Type.String({
      maxLength: 60,
      pattern: '^whsec_[A-Za-z0-9+/=]+$',
      description: 'The signing secret (Standard Webhooks): shown only in this answer; keep it to verify webhook-signature',
      examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    }),
  },
  {
    $id: 'CreatedSubscription',
    title: 'CreatedSubscription',
    description: 'A subscription just made, with its secret',
    examples: [{ ...SUBSCRIPTION_EXAMPLE, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }],
  },
)

export const SubscriptionIdParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100, description: 'The id of the subscription', examples: ['wh_4fQ2r9LwXb1kN7sTz3aVyQ'] }),
})
export type SubscriptionIdParamsType = Static<typeof SubscriptionIdParams>

const TIME = (description: string) => Type.String({ format: 'date-time', maxLength: 40, description })
const TIME_OR_NULL = (description: string) => Type.Union([TIME(description), Type.Null()], { description })

export const DeliverySchema = Type.Object(
  {
    id: Type.String({ maxLength: 60, description: 'The webhook-id of the event: the same on every attempt and redelivery' }),
    event: Type.Union([...EVENT_NAMES.map((name) => Type.Literal(name)), Type.Literal('ping')], { description: 'The event type' }),
    plantId: Type.Optional(int64('The id of the plant the event is about; absent for a ping', [7])),
    state: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')], {
      description:
        'pending: due or being retried; delivered: a 2xx came back; failed: given up after the last retry, or the subscription was disabled',
    }),
    attempts: Type.Integer({ format: 'int32', minimum: 0, maximum: 1000, description: 'Attempts since it was written or last requeued' }),
    createdAt: TIME('When the event was written, in the transaction of its change'),
    lastAttemptAt: TIME_OR_NULL('When it was last attempted; null before the first attempt'),
    nextAttemptAt: TIME_OR_NULL('When it is due next while pending; null once delivered or failed'),
    lastStatus: Type.Union([Type.Integer({ format: 'int32', minimum: 100, maximum: 599 }), Type.Null()], {
      description: "The receiver's last HTTP status; null when there was no answer",
    }),
    lastError: Type.Union([Type.String({ maxLength: 200 }), Type.Null()], {
      description: 'What went wrong at the last attempt (no answer, or the start of a non-2xx answer); null after a 2xx',
    }),
  },
  {
    $id: 'Delivery',
    title: 'Delivery',
    description: 'One event of a subscription, from the outbox: what was sent and how its attempts went',
    examples: [
      {
        id: 'msg_2b1f0c9e4a774b8e9a512d1f0c9e4a77',
        event: 'newPlant',
        plantId: 7,
        state: 'failed',
        attempts: 8,
        createdAt: '2026-11-24T08:00:00.000Z',
        lastAttemptAt: '2026-11-26T12:00:00.000Z',
        nextAttemptAt: null,
        lastStatus: 503,
        lastError: 'HTTP 503: upstream unavailable',
      },
    ],
  },
)

export const DeliveriesQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({ format: 'int32', minimum: 1, maximum: 250, description: 'Events per page (default 50)', examples: [50] }),
  ),
  before: Type.Optional(int64('Only events written before this cursor: follow the Link header rel="next" as given', [4815])),
})
export type DeliveriesQueryType = Static<typeof DeliveriesQuery>

export const DeliveryParams = Type.Object({
  id: SubscriptionIdParams.properties.id,
  webhookId: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'The webhook-id of the event',
    examples: ['msg_2b1f0c9e4a774b8e9a512d1f0c9e4a77'],
  }),
})
export type DeliveryParamsType = Static<typeof DeliveryParams>

export const RecoverSchema = Type.Object(
  { since: TIME('Failed events written at or after this time are due again') },
  { $id: 'Recover', title: 'Recover', description: 'Which failed events to send again', examples: [{ since: '2026-11-24T00:00:00Z' }] },
)
export type RecoverBody = Static<typeof RecoverSchema>

export const RequeuedSchema = Type.Object(
  { requeued: Type.Integer({ format: 'int32', minimum: 0, maximum: 2147483647, description: 'How many failed events are due again' }) },
  { examples: [{ requeued: 12 }] },
)

export const PingSchema = Type.Object(
  { id: Type.String({ maxLength: 60, description: 'The webhook-id of the ping event, as its deliveries log shows it' }) },
  { examples: [{ id: 'msg_2b1f0c9e4a774b8e9a512d1f0c9e4a77' }] },
)

export const RotatedSecretSchema = Type.Object(
  {
    secret: Type.String({
      maxLength: 60,
      pattern: '^whsec_[A-Za-z0-9+/=]+$',
      description: 'The new signing secret, shown only in this answer',
      examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    }),
    previousSecretExpiresAt: TIME('Until then every delivery is signed with the previous secret too (WEBHOOK_SECRET_OVERLAP)'),
  },
  {
    $id: 'RotatedSecret',
    title: 'RotatedSecret',
    description: 'A new secret, and until when the one it replaces still signs',
    examples: [{ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', previousSecretExpiresAt: '2026-11-25T08:00:00.000Z' }],
  },
)

/** Schemas with a name of their own: the document lists them under components, and clients get types. */
export const NAMED_SCHEMAS: readonly TSchema[] = [
  ListedPlantSchema,
  RotatedSecretSchema,
  DeliverySchema,
  RecoverSchema,
  SubscriptionPatchSchema,
  ErrorSchema,
  PlantSchema,
  NewPlantSchema,
  PlantPatchSchema,
  StatusSchema,
  NewSubscriptionSchema,
  SubscriptionSchema,
  CreatedSubscriptionSchema,
]

/** A reference to one of NAMED_SCHEMAS. */
export const ref = (schema: TSchema): { $ref: string } => ({ $ref: `${schema.$id as string}#` })

export const PlantIdParams = Type.Object({
  id: int64('The id of the plant', [7]),
})
export type PlantIdParamsType = Static<typeof PlantIdParams>

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 257,
      description:
        'Makes a retry safe: 1 to 255 printable ASCII characters (bare, or as a quoted string), chosen by the client for this one request. Kept per subject for IDEMPOTENCY_TTL (24 h by default).',
      examples: ['3f1c2a9e-create-monstera'],
    }),
  ),
})

/** POST /plants: an Idempotency-Key; If-Match, which the plant list (no ETag) meets only as *; If-None-Match, about the plant the body names. */
export const CreateHeaders = Type.Object({
  ...IdempotencyHeaders.properties,
  // Its example is *, the one value that creates: the docs page's "Try it out" sends the example.
  'if-match': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1000,
      description:
        'The plant list has no entity tag: * creates as without it; any tag is a 412 and nothing is created (RFC 9110 section 13.1.1)',
      examples: ['*'],
    }),
  ),
  'if-none-match': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1000,
      description:
        'Create only where no plant is: with *, a plant whose id exists (whoever owns it) is a 412 instead of the 400 already exists; with tags ("3"), a 412 when your plant with that id is at one of them. A malformed value is a 400.',
      examples: ['*'],
    }),
  ),
})

/** GET /plants: the list has no entity tag (RFC 9110 13.1.1, 13.1.2). */
export const ListConditionHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1000,
      description: 'The plant list has no entity tag: * reads it as without the header; any tag is a 412. A malformed value is a 400.',
      examples: ['*'],
    }),
  ),
  'if-none-match': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1000,
      description:
        'The plant list has no entity tag: tags never match it (200); * names the list, which always exists: 304 without a body. A malformed value is a 400.',
      examples: ['"3"'],
    }),
  ),
})

export const ListQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({
      format: 'int32',
      minimum: 0,
      maximum: 2147483647,
      description: 'The maximum number of plants to return; absent means every accessible plant',
      examples: [100],
    }),
  ),
  after: Type.Optional(int64('Return only plants with an id greater than this (paging)', [7])),
  tag: Type.Optional(
    Type.String({ maxLength: 100, pattern: TAG_PATTERN, description: 'Return only plants with exactly this tag', examples: ['indoor'] }),
  ),
  include: Type.Optional(
    Type.Literal('id', {
      description:
        'An extension: `id` gives each item its id, first (a ListedPlant); without it the items are Plants, as the specification says',
    }),
  ),
})
export type ListQueryType = Static<typeof ListQuery>
