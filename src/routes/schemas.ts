import { Type, type Static, type TSchema } from '@sinclair/typebox'

/**
 * A JSON integer in the signed 64-bit range, kept exact as a bigint. Request bodies and URLs
 * carry it as an integer literal; see validation.ts for how it is checked.
 */
const int64 = (description: string) => Type.Unsafe<bigint>(Type.Integer({ format: 'int64', description }))

const ErrorSchema = Type.Object(
  {
    error: Type.Integer({ format: 'int32', description: 'The HTTP status code of the response' }),
    message: Type.String({ description: 'What went wrong, for a human' }),
  },
  { title: 'Error' },
)

export const PlantSchema = Type.Object(
  {
    name: Type.String({ description: 'The name of the plant' }),
    tag: Type.Optional(Type.String({ description: 'Tag to specify the type; absent when the plant has none' })),
  },
  { title: 'Plant' },
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
    id: int64('Identification number of the plant, unique in the store'),
    name: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: NAME_PATTERN,
      description:
        'The name of the plant: 1 to 200 characters (Unicode code points), not only white space, without U+0000',
    }),
    tag: Type.Optional(
      Type.String({
        maxLength: 100,
        pattern: TAG_PATTERN,
        description: 'Tag to specify the type: 0 to 100 characters, without U+0000',
      }),
    ),
  },
  { title: 'NewPlant', description: 'Other properties are ignored and not stored' },
)
export type NewPlantBody = Static<typeof NewPlantSchema>

export const PlantIdParams = Type.Object({
  id: int64('The id of the plant'),
})
export type PlantIdParamsType = Static<typeof PlantIdParams>

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 257,
      description:
        'Makes a retry safe: 1 to 255 printable ASCII characters (bare, or as a quoted string), chosen by the client for this one request. Kept per subject for IDEMPOTENCY_TTL (24 h by default).',
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
    }),
  ),
  after: Type.Optional(int64('Return only plants with an id greater than this (paging)')),
  tag: Type.Optional(Type.String({ maxLength: 100, description: 'Return only plants with exactly this tag' })),
})
export type ListQueryType = Static<typeof ListQuery>

const ERROR_MEANINGS: Record<number, string> = {
  400: 'The request is invalid; the message names what is wrong. Nothing was changed.',
  401: 'No bearer token, or one that is unknown, expired or revoked (see WWW-Authenticate)',
  403: 'The token lacks the scope this operation needs (see WWW-Authenticate)',
  404: 'No plant with this id that the caller may access',
  409: 'A request with this Idempotency-Key is still in flight; retry after Retry-After seconds',
  422: 'This Idempotency-Key was already used for a different request',
  429: 'Too many requests for this token or client address; retry after Retry-After seconds',
  500: 'A fault of the server; it is logged with the request id',
  503: 'The database is unavailable; retry later',
}

/** Error responses a route can give, each with the Error body. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(
    statuses.map((status) => [status, { ...ErrorSchema, description: ERROR_MEANINGS[status] ?? 'Error' }]),
  )
}
