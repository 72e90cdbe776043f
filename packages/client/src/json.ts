import { LosslessNumber, isInteger, parse, stringify } from 'lossless-json'
import { MalformedAnswerError } from './errors.js'

/**
 * JSON in and out without doubles: numbers stay as written (LosslessNumber) until a decoder
 * says what each one is, and bigints are written as plain integer literals.
 */
export const parseJson = (text: string): unknown => parse(text)

export const toJson = (value: unknown): string => stringify(value) as string

export function objectOf(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new MalformedAnswerError(`${what} is not a JSON object`)
  return value as Record<string, unknown>
}

export function stringOf(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new MalformedAnswerError(`${what} is not a string`)
  return value
}

/** An integer literal, exactly. */
export function bigintOf(value: unknown, what: string): bigint {
  if (!(value instanceof LosslessNumber) || !isInteger(value.value)) throw new MalformedAnswerError(`${what} is not an integer`)
  return BigInt(value.value)
}
