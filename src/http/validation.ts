import { Ajv, type AnySchema, type ErrorObject, type SchemaValidateFunction } from 'ajv'
import type { DataValidationCxt } from 'ajv/dist/types/index.js'
import type { FastifySchemaCompiler } from 'fastify'
import { INT64_MAX, INT64_MIN } from '../api/int64.js'

type Bounds = { min: bigint; max: bigint; bigint: boolean; fromText: boolean }

const INTEGER_FORMATS: Record<string, { min: bigint; max: bigint }> = {
  int32: { min: -(2n ** 31n), max: 2n ** 31n - 1n },
  int64: { min: INT64_MIN, max: INT64_MAX },
}

const INTEGER_LITERAL = /^-?(0|[1-9][0-9]*)$/

/**
 * Integers of this API are checked on their literal, never on a double: the JSON body parser
 * hands them over as bigints, the URL as decimal strings. In a body, `1.0`, `1e3` and `"7"`
 * are not integers; in a URL, `01`, `+1` and `1.0` are not.
 */
function integerLiteral(bounds: Bounds, data: unknown, _schema: unknown, ctx?: DataValidationCxt): boolean {
  let value: bigint | undefined
  if (bounds.fromText) {
    if (typeof data === 'string' && INTEGER_LITERAL.test(data)) value = BigInt(data)
  } else if (typeof data === 'bigint') value = data
  if (value === undefined || value < bounds.min || value > bounds.max) {
    ;(integerLiteral as SchemaValidateFunction).errors = [
      { keyword: 'integerLiteral', message: `must be an integer from ${bounds.min} to ${bounds.max}`, params: {} },
    ]
    return false
  }
  if (ctx?.parentData !== undefined) {
    ctx.parentData[ctx.parentDataProperty] = bounds.bigint ? value : Number(value)
  }
  return true
}

/** The schema as validated: `integer` nodes with an int32/int64 format become `integerLiteral` checks. */
function forValidation(schema: unknown, fromText: boolean): unknown {
  if (Array.isArray(schema)) return schema.map((item) => forValidation(item, fromText))
  if (schema === null || typeof schema !== 'object') return schema
  const node = schema as Record<string, unknown>
  const format = INTEGER_FORMATS[node.format as string]
  if (node.type === 'integer' && format) {
    const { type: _type, format: _format, minimum, maximum, ...annotations } = node
    // A double bound cannot say 2^63 − 1 (it rounds to 2^63): the format's own range always holds.
    const bounds = {
      min: typeof minimum === 'number' && BigInt(minimum) > format.min ? BigInt(minimum) : format.min,
      max: typeof maximum === 'number' && BigInt(maximum) < format.max ? BigInt(maximum) : format.max,
      bigint: node.format === 'int64',
      fromText,
    }
    return { ...annotations, integerLiteral: bounds }
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, forValidation(value, fromText)]))
}

/** RFC 3339 date and time with an offset (`2026-11-24T08:00:00Z`, `…+02:00`), and a real instant. */
const RFC_3339 = /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-]([0-9]{2}):[0-9]{2})$/
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate()
// Date.parse alone rolls February 30th and hour 24 over into another day: they name no instant here.
const isDateTime = (text: string): boolean => {
  const parts = RFC_3339.exec(text)
  if (parts === null || Number.isNaN(Date.parse(text))) return false
  const [year, month, day, hour, offsetHours] = [1, 2, 3, 4, 7].map((index) => Number(parts[index] ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
  ]
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month) && hour <= 23 && offsetHours <= 23
}

/**
 * One Ajv for every part of the request, with no type coercion: `{"name": 7}` is a 400, not "7".
 * `patternMeanings` words the failure of a `pattern`, which Ajv would state as the expression.
 */
export function createValidatorCompiler(
  patternMeanings: Readonly<Record<string, string>> = {},
  namedSchemas: readonly object[] = [],
): FastifySchemaCompiler<AnySchema> {
  // `uri` is documentation here: a subscription URL is checked by its route, with words for each failure.
  const ajv = new Ajv({
    coerceTypes: false,
    useDefaults: false,
    allErrors: false,
    strict: true,
    formats: { uri: true, 'date-time': isDateTime },
  })
  ajv.addKeyword({ keyword: 'integerLiteral', modifying: true, errors: true, validate: integerLiteral })
  // Routes refer to these by $id; they are bodies (JSON), never URL text.
  for (const schema of namedSchemas) ajv.addSchema(forValidation(schema, false) as AnySchema)
  const explain = (error: ErrorObject): ErrorObject => {
    const meaning = error.keyword === 'pattern' ? patternMeanings[error.params.pattern as string] : undefined
    return meaning === undefined ? error : { ...error, message: meaning }
  }
  return ({ schema, httpPart }) => {
    const validate = ajv.compile(forValidation(schema, httpPart !== 'body') as AnySchema)
    const check = (data: unknown) => {
      const valid = validate(data) as boolean
      check.errors = valid ? null : (validate.errors ?? []).map(explain)
      return valid
    }
    check.errors = null as ErrorObject[] | null
    return check
  }
}
