import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger'
import { EVENT_NAMES, EVENT_TYPES, PING_WEBHOOK } from '../api/events.js'

const DESCRIPTION = `Keeps plants in a store: create, list, change and delete, each behind a bearer token.
A caller sees only its own plants; a token with the scope plants:admin sees every plant.
Ids are signed 64-bit integers and are kept exactly: read them with a JSON parser that does not
round integers above 2^53 (the typed client \`@plantstore/client\` does this).
Each plant has a version, its ETag: send it in If-Match to change or delete only the version you read.
Every error, on every path, is an Error object whose \`error\` is the HTTP status.
This document is served at /openapi.json.`

/** The scopes a token can carry, as the security requirements name them. */
export const SCOPE_MEANINGS = {
  'plants:read': 'List and get the plants the caller may access',
  'plants:write': 'Create, change (PATCH) and delete plants',
  'plants:admin': 'Access every plant, whoever owns it',
  'webhooks:manage': 'Make, list and delete webhook subscriptions',
} as const

/**
 * Where clients reach the API: PUBLIC_URL when set, else `/`, the origin the document was
 * fetched from, which is true wherever the instance is reached (a proxy, a container's mapped
 * port) and names no plain-http address.
 */
function server(publicUrl: string | null): { url: string; description: string; 'x-internal': boolean } {
  if (publicUrl !== null)
    return { url: publicUrl, description: 'production: the address this deployment publishes (PUBLIC_URL)', 'x-internal': false }
  return {
    url: '/',
    description: 'local: the origin this document was fetched from (set PUBLIC_URL to publish an address)',
    'x-internal': true,
  }
}

export function documentOptions(publicUrl: string | null): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Plant Store',
        version: '1.0.0',
        description: DESCRIPTION,
        license: { name: 'MIT', identifier: 'MIT' },
        contact: { name: 'Plant Store maintainers' },
      },
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'pst_ token or JWT',
            description:
              "Either an opaque `pst_…` token made with `plantstore token create`, or, when the service is configured with JWT_ISSUER, a JWT access token (RFC 9068) of that identity provider for this API's audience. " +
              `Scopes: ${Object.entries(SCOPE_MEANINGS)
                .map(([scope, meaning]) => `${scope} (${meaning.toLowerCase()})`)
                .join('; ')}.`,
          },
        },
      },
      tags: [
        { name: 'plants', description: 'The plants of the caller' },
        {
          name: 'webhooks',
          description: `Webhook subscriptions, their deliveries log, and the events they receive: ${[...EVENT_NAMES, 'ping'].join(', ')}`,
        },
        { name: 'operations', description: 'Health, readiness and metrics; no token needed' },
      ],
      webhooks: { ...Object.fromEntries(EVENT_TYPES.map((event) => [event.name, event.webhook])), ping: PING_WEBHOOK },
    },
    // Named schemas keep their names under components, so generated clients get named types.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transformObject: (documentObject) =>
      'openapiObject' in documentObject ? { ...documentObject.openapiObject, servers: [server(publicUrl)] } : documentObject.swaggerObject,
  }
}

/**
 * The document as JSON text. JSON.stringify writes the int64 bounds as the doubles ±2^63
 * (…776000); the document states the exact range, as an exact JSON parser reads it.
 */
export function documentText(document: unknown): string {
  return JSON.stringify(document)
    .replaceAll('"minimum":-9223372036854776000', '"minimum":-9223372036854775808')
    .replaceAll('"maximum":9223372036854776000', '"maximum":9223372036854775807')
}
