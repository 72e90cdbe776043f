import { hash } from 'node:crypto'
import type { Column, Value } from './shape.js'

const LANE = 64

/** One value as text that is the same on both stores: times in milliseconds, booleans as words. */
function canonical(value: Value): string {
  if (value === null) return 'null'
  if (typeof value === 'bigint') return `${value}`
  if (typeof value === 'number') return Number.isInteger(value) ? `${value}` : value.toExponential()
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (Buffer.isBuffer(value)) return `x${value.toString('hex')}`
  return JSON.stringify(value)
}

/**
 * A table's rows and their sum: each row hashed (SHA-256 of its canonical values), the first 128
 * bits of the hashes added in two 64-bit lanes. A sum does not depend on the order rows come in,
 * so the two stores need not sort text the same way, and any changed, lost or added row changes it.
 */
export class TableChecksum {
  rows = 0
  private high = 0n
  private low = 0n

  add(columns: readonly Column[], row: readonly Value[]): void {
    let text = ''
    for (let i = 0; i < columns.length; i++) text += `${canonical(row[i] ?? null)}\u0000`
    const digest = hash('sha256', text, 'buffer')
    this.high = BigInt.asUintN(LANE, this.high + digest.readBigUInt64BE(0))
    this.low = BigInt.asUintN(LANE, this.low + digest.readBigUInt64BE(8))
    this.rows++
  }

  /** The first 16 hex digits of the sum: enough for a person to compare; the whole sum is compared. */
  get short(): string {
    return this.high.toString(16).padStart(16, '0')
  }

  equals(other: TableChecksum): boolean {
    return this.rows === other.rows && this.high === other.high && this.low === other.low
  }
}
