import { existsSync, readFileSync } from 'node:fs'
import { parseEnv } from 'node:util'
import { ConfigError } from './errors.js'

/** A setting: an optional `export`, a name, `=`; the value is what Node's parser reads. */
const SETTING = /^\s*(export\s+)?[A-Za-z_][A-Za-z0-9_]*\s*=/
const QUOTES = ['"', "'", '`']

/**
 * Checks that every line of a `.env` text is a setting, a comment or blank, so that Node's
 * parser reads it exactly: that parser takes a line without `=` as the start of the next
 * setting's name and silently drops that setting. A value that opens a quote may go on over
 * lines until the quote closes. Throws a ConfigError naming the first line that is none of these.
 */
export function checkDotEnv(text: string, path: string): void {
  const lines = text.split(/\r?\n/)
  let openQuote: string | null = null
  lines.forEach((line, index) => {
    if (openQuote !== null) {
      if (line.includes(openQuote)) openQuote = null
      return
    }
    const trimmed = line.trim()
    if (trimmed === '' || trimmed.startsWith('#')) return
    if (!SETTING.test(line)) {
      throw new ConfigError(`${path} line ${index + 1} is not NAME=value, a comment or blank: the file is not read`)
    }
    const value = line.slice(line.indexOf('=') + 1).trimStart()
    const quote = QUOTES.find((mark) => value.startsWith(mark))
    if (quote !== undefined && !value.slice(1).includes(quote)) openQuote = quote
  })
  if (openQuote !== null) throw new ConfigError(`${path} ends inside a quoted value: the file is not read`)
}

/**
 * A `.env` file in the working directory fills the variables that the environment leaves
 * unset; a file that cannot be read exactly is refused, with the line. A UTF-8 byte order mark
 * (as some editors write) is not part of the first name.
 */
export function loadDotEnv(path = '.env', env: NodeJS.ProcessEnv = process.env): void {
  if (!existsSync(path)) return
  const text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '')
  checkDotEnv(text, path)
  for (const [name, value] of Object.entries(parseEnv(text))) {
    if (env[name] === undefined) env[name] = value
  }
}
