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
