// Calls to the API the document declares, with the token of this tab. The token lives in
// sessionStorage only: never a cookie, the URL or localStorage.

const KEY = 'plantstore.console.token'

export const session = {
  token: () => sessionStorage.getItem(KEY),
  keep: (token) => sessionStorage.setItem(KEY, token),
  forget: () => sessionStorage.removeItem(KEY),
}

export class ApiError extends Error {
  constructor(status, message) {
    super(message)
    this.status = status
  }
}

/**
 * A request whose answer must not render: a newer one replaced it (another view, another page),
 * or the session ended. Views ignore it.
 */
export class Superseded extends Error {}

/**
 * One request at a time: each call of the returned function aborts the one before and gives the
 * signal of the new one, also aborted with `outer` (the view's own signal, when it is left).
 */
export function latestOnly(outer) {
  let controller = null
  return () => {
    controller?.abort()
    controller = new AbortController()
    return outer === undefined ? controller.signal : AbortSignal.any([outer, controller.signal])
  }
}

/** Called when the service answers 401 to the token of this tab: it was revoked or expired. */
let onSessionEnded = () => {}
export const whenSessionEnds = (handler) => {
  onSessionEnded = handler
}

/**
 * JSON.parse with ids kept exact: a plant id is an int64, beyond what a double holds, so its
 * literal becomes a string first. Inside a JSON string a quote is always escaped, so the
 * pattern cannot match text within a name.
 */
export const parseExact = (text) => JSON.parse(text.replace(/([{,])"(id|plantId)":(-?\d+)/g, '$1"$2":"$3"'))

export async function call(method, path, { body, type = 'application/json', headers = {}, token = session.token(), signal } = {}) {
  const init = { method, cache: 'no-store', signal, headers: { ...headers, authorization: `Bearer ${token}` } }
  if (body !== undefined) {
    init.body = body
    init.headers['content-type'] = type
  }
  let response
  let text
  try {
    response = await fetch(path, init)
    text = await response.text()
  } catch {
    if (signal?.aborted) throw new Superseded()
    throw new ApiError(0, 'The service cannot be reached.')
  }
  if (signal?.aborted) throw new Superseded()
  if (!response.ok) {
    let message = `The service answered ${response.status}.`
    try {
      message = JSON.parse(text).message ?? message
    } catch {
      // Not the service's Error body (a proxy's page): the status says enough.
    }
    // The session's token no longer works: end the session now, not at the next reload.
    if (response.status === 401 && token === session.token()) {
      onSessionEnded(message)
      throw new Superseded()
    }
    throw new ApiError(response.status, message)
  }
  return { status: response.status, headers: response.headers, body: text === '' ? null : parseExact(text) }
}

/** The target of a Link rel="next" header (to be followed as given), or null. */
export function nextLink(headers) {
  const link = headers.get('link')
  if (link === null) return null
  return /<([^>]*)>\s*;\s*rel="?next"?/.exec(link)?.[1] ?? null
}

/**
 * What the token may do, asked of the API itself: a read is tried with limit=0, a write with an
 * empty body (the scope is judged before the body, so 403 means no scope, 400 means allowed, and
 * nothing is created). A bad token is thrown with the service's own message.
 */
export async function capabilities(token) {
  const allowed = async (method, path, body) => {
    try {
      await call(method, path, { token, ...(body === undefined ? {} : { body }) })
      return true
    } catch (error) {
      if (error.status === 403) return false
      if (error.status === 400) return true
      throw error
    }
  }
  const read = await allowed('GET', '/plants?limit=0')
  const write = await allowed('POST', '/plants', '{}')
  const webhooks = await allowed('GET', '/webhooks')
  return { read, write, webhooks }
}
