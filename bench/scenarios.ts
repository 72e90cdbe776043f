import type autocannon from 'autocannon'

/** The load of one benchmark scenario: the requests autocannon sends on each connection, in turn. */
export interface Scenario {
  name: string
  requests: () => autocannon.Request[]
}

/** The load: keep-alive connections per scenario, the same for the service and the baseline. */
export const CONNECTIONS = 50

let nextId = 1_000_000_000_000n

/** A new plant with an id no earlier request used: creates are never duplicates. */
const createRequest = (): autocannon.Request => ({
  method: 'POST',
  path: '/plants',
  headers: { 'content-type': 'application/json' },
  setupRequest: (request) => ({ ...request, body: `{"id":${nextId++},"name":"bench plant","tag":"bench"}` }),
})

export const LIST: Scenario = { name: 'list', requests: () => [{ method: 'GET', path: '/plants?limit=20' }] }
export const CREATE: Scenario = { name: 'create', requests: () => [createRequest()] }
export const MIXED: Scenario = {
  name: 'mixed',
  requests: () => [
    {
      method: 'POST',
      path: '/plants',
      headers: { 'content-type': 'application/json' },
      setupRequest: (request, context) => {
        const id = nextId++
        ;(context as { id?: bigint }).id = id
        return { ...request, body: `{"id":${id},"name":"bench plant","tag":"bench"}` }
      },
    },
    {
      method: 'DELETE',
      setupRequest: (request, context) => ({ ...request, path: `/plants/${(context as { id?: bigint }).id}` }),
    },
  ],
}

let nextPatch = 0

/** A change of a seeded plant (ids 1 to 1,000, the lister's): each renames it, so each is a new version. */
export const PATCH: Scenario = {
  name: 'patch',
  requests: () => [
    {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      setupRequest: (request) => {
        const n = nextPatch++
        return { ...request, path: `/plants/${(n % 1_000) + 1}`, body: `{"name":"renamed ${n}"}` }
      },
    },
  ],
}
