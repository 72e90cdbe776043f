import { appendFileSync } from 'node:fs'

let file: string | undefined

export function initialize(data: { file?: string }): void {
  file = data.file
}

interface Resolved {
  url: string
}

export async function resolve(
  specifier: string,
  context: unknown,
  next: (specifier: string, context: unknown) => Promise<Resolved>,
): Promise<Resolved> {
  const resolved = await next(specifier, context)
  const match = /\/node_modules\/(@opentelemetry\/[^/]+)\//.exec(resolved.url)
  if (match && file !== undefined) appendFileSync(file, `${match[1]}\n`)
  return resolved
}
