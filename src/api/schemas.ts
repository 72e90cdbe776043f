import { Type, type Static, type TSchema } from '@sinclair/typebox'

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
  description:
    'Where each new plant is POSTed: an absolute http or https URL whose host is (and resolves to) a public address, unless WEBHOOK_ALLOWED_NETWORKS allows it',
  examples: ['https://hooks.example.com/plantstore'],
})

export const NewSubscriptionSchema = Type.Object(
  { url: SUBSCRIPTION_URL },
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
  allPlants: Type.Boolean({ description: "true when made with plants:admin: every new plant, whoever owns it; else the subject's own" }),
  createdAt: Type.String({ format: 'date-time', maxLength: 40, description: 'When the subscription was made' }),
  status: Type.Union([Type.Literal('active'), Type.Literal('disabled')], {
    description: 'disabled once a receiver answered 410 Gone: no event is sent to it any more',
  }),
}

export const SubscriptionSchema = Type.Object(
  { ...subscriptionProperties, disabledReason: Type.Optional(Type.String({ maxLength: 400, description: 'Why it was disabled' })) },
  {
    $id: 'Subscription',
    title: 'Subscription',
    description: 'A webhook subscription; its secret is shown only when it is made',
    examples: [
      {
        id: 'wh_4fQ2r9LwXb1kN7sTz3aVyQ',
        url: 'https://hooks.example.com/plantstore',
        allPlants: false,
        createdAt: '2026-11-24T08:00:00.000Z',
        status: 'active',
      },
    ],
  },
)
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
    examples: [
      {
        id: 'wh_4fQ2r9LwXb1kN7sTz3aVyQ',
        url: 'https://hooks.example.com/plantstore',
        allPlants: false,
        createdAt: '2026-11-24T08:00:00.000Z',
        status: 'active',
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      },
    ],
  },
)

export const SubscriptionIdParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100, description: 'The id of the subscription', examples: ['wh_4fQ2r9LwXb1kN7sTz3aVyQ'] }),
})
export type SubscriptionIdParamsType = Static<typeof SubscriptionIdParams>

/** Schemas with a name of their own: the document lists them under components, and clients get types. */
export const NAMED_SCHEMAS: readonly TSchema[] = [
  ErrorSchema,
  PlantSchema,
  NewPlantSchema,
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
  tag: Type.Optional(Type.String({ maxLength: 100, description: 'Return only plants with exactly this tag', examples: ['indoor'] })),
})
export type ListQueryType = Static<typeof ListQuery>
