/** `access_token` in a query (RFC 6750 §2.3) carries a credential: it is masked in every logged URL. */
const ACCESS_TOKEN = 'access_token'

/** A query parameter's name as a server decodes it: `access%5Ftoken` is `access_token`. */
function decodedName(parameter: string): string {
  const equals = parameter.indexOf('=')
  const name = (equals === -1 ? parameter : parameter.slice(0, equals)).replace(/\+/g, ' ')
  try {
    return decodeURIComponent(name).toLowerCase()
  } catch {
    return name.toLowerCase()
  }
}

/** The URL as it may be logged: the value of every parameter whose decoded name is access_token masked. */
export function loggableUrl(url: string): string {
  const question = url.indexOf('?')
  if (question === -1) return url
  const hash = url.indexOf('#', question)
  const query = url.slice(question + 1, hash === -1 ? undefined : hash)
  // Any form of the name carries a `_` or an escape: plain URLs are logged as they came.
  if (!query.includes('_') && !query.includes('%')) return url
  const masked = query
    .split('&')
    .map((parameter) =>
      decodedName(parameter) === ACCESS_TOKEN ? `${parameter.slice(0, parameter.indexOf('=') + 1 || undefined)}[masked]` : parameter,
    )
    .join('&')
  return `${url.slice(0, question + 1)}${masked}${hash === -1 ? '' : url.slice(hash)}`
}
