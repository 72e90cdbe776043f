// Generated from the served OpenAPI document by `npm run generate:client`; do not edit.
// int64 is bigint: every id is exact. test/client.test.ts fails when this file drifts.

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The process is up
         * @description Answers ok while the process serves, whatever the database does: for a liveness probe.
         */
        get: operations["checkLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The database can serve
         * @description Ready while the store can serve: on PostgreSQL a query answers; on SQLite a read answers and the file takes writes (its last write did not fail for a lock held past the wait, a full disk or a read-only file; after such a failure, a write of its own at most every 2 s, never waiting for the lock, says when it does again). For a readiness probe or a load balancer health check.
         */
        get: operations["checkReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description Request counts and durations, store and process metrics, in the Prometheus text format (summed over WORKERS).
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/plants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the plants the caller may access
         * @description Plants in ascending id order: the caller's own, or every plant for a token with plants:admin. When a page holds exactly `limit` (> 0) plants, a `Link: <…>; rel="next"` header gives the next page. With `include=id` each item carries its id first (a ListedPlant), so that a client can act on a listed plant. The list has no ETag: If-Match: * reads it, any tag is a 412; If-None-Match with tags never matches (200), * is a 304.
         */
        get: operations["listPlants"];
        put?: never;
        /**
         * Create a plant
         * @description Adds a plant owned by the caller. Every failure caused by the request (bad JSON, wrong content type, body over 16 KiB, invalid field, an id that already exists) is a 400. With an Idempotency-Key, a retry of the same request within the key's lifetime gets the first answer again (200 or 400 already exists), with Idempotent-Replayed: true, and has no new effect. With If-None-Match: *, a plant whose id exists is a 412 instead of a 400: the create is made only where no plant is.
         */
        post: operations["createPlant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/plants/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one plant
         * @description A plant of another owner is answered exactly as a missing one: 404. With If-None-Match naming the current ETag, 304 without a body: a poller whose copy is current reads nothing. With If-Match naming no current version, 412 without the plant (If-Match is evaluated first).
         */
        get: operations["getPlant"];
        put?: never;
        post?: never;
        /**
         * Delete a plant
         * @description A plant of another owner is answered exactly as a missing one: 404. With If-Match, the plant is deleted only while it is at that version; with If-None-Match, only while it is at none of those; else 412 and nothing changes.
         */
        delete: operations["deletePlant"];
        options?: never;
        head?: never;
        /**
         * Change a plant
         * @description A JSON merge patch (RFC 7396; application/merge-patch+json, or application/json meaning the same) of name and tag; tag: null removes the tag. With If-Match (the ETag you read), the change is made only while the plant is still at that version, else 412 and nothing changes: of two writers with one ETag, one wins. With If-None-Match, only while it is at none of those versions. A retry after a lost answer with the same If-Match answers 412: GET the plant to see whether the change is there. A patch that changes nothing answers 200 with the same ETag and sends no event. A plant of another owner is answered exactly as a missing one: 404.
         */
        patch: operations["updatePlant"];
        trace?: never;
    };
    "/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook subscriptions
         * @description The caller's subscriptions, oldest first; every subscription for a token with plants:admin. Secrets are never shown again.
         */
        get: operations["listSubscriptions"];
        put?: never;
        /**
         * Subscribe to plant events
         * @description Each event from now on of the types in events (default newPlant; also plantDeleted) is POSTed to the URL (see webhooks), signed per Standard Webhooks with the secret of this answer, which is shown only here. A token with plants:admin subscribes to every new plant, any other to its subject's own. The URL's host must be, and resolve to, a public address.
         */
        post: operations["createSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook subscription
         * @description Never its secret. Another subject's subscription is answered exactly as a missing one: 404.
         */
        get: operations["getSubscription"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook subscription
         * @description No event is sent to it any more, pending retries included, and its deliveries log goes with it. Another subject's subscription is answered exactly as a missing one: 404.
         */
        delete: operations["deleteSubscription"];
        options?: never;
        head?: never;
        /**
         * Change a webhook subscription
         * @description Changes url (checked as on create), events or enabled, as application/json or application/merge-patch+json; any other field or a bad value is a 400 and changes nothing. While disabled a subscription receives no event but a ping (none is written for it; its pending ones fail, and can be recovered once it is enabled again; redeliver and recover answer 409 meanwhile). An attempt under way when it is disabled is logged as it ended. enabled: true turns it back on for events from then on.
         */
        patch: operations["updateSubscription"];
        trace?: never;
    };
    "/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a subscription's secret
         * @description A new secret, shown only here, signs every delivery from now on. Until previousSecretExpiresAt (WEBHOOK_SECRET_OVERLAP later) the previous one signs too: webhook-signature then holds two space-separated v1 entries, and a receiver may verify with either. A rotation during an overlap drops the oldest: at most two secrets sign.
         */
        post: operations["rotateSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A subscription's deliveries log
         * @description Its events, newest first, with their state, attempts and last answer; kept for WEBHOOK_RETENTION after they finish. When more exist, a Link header rel="next" gives the next page: follow it as given.
         */
        get: operations["listDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/deliveries/{webhookId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send one event again
         * @description The event is due again now, with the same webhook-id and body, and a new round of retries, whether it was delivered, failed or pending: one whose attempt is under way (a receiver may ask the instant it got the body) is sent once more after that attempt. Its attempts are kept: the log counts every attempt made, and the retry schedule starts again from this one. An unknown webhook-id, or one of another subscription: 404. While the subscription is disabled: 409, and nothing is sent.
         */
        post: operations["redeliverEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send failed events again
         * @description Every failed event of the subscription written at or after since is due again now, with its webhook-id and body, and a new round of retries: after an outage of the endpoint, nothing is lost for good. While the subscription is disabled: 409, and nothing is sent (enable it first).
         */
        post: operations["recoverEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/ping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a ping event
         * @description A ping event with the body {"subscription": "<id>"} is sent, signed, retried and logged like any event; also while the subscription is disabled, to test a mended endpoint.
         */
        post: operations["pingSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    newPlant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A plant was created
         * @description Sent to each subscription (POST /webhooks) active when a plant was created, once the create is committed; at least once, so deduplicate by webhook-id. Verify webhook-signature on the raw body before parsing it (Standard Webhooks), and read the id without rounding: it is an int64. Any 2xx within WEBHOOK_TIMEOUT_MS is success; anything else is retried after WEBHOOK_RETRY_DELAYS (Retry-After may lengthen the wait), and 410 Gone disables the subscription. Redirects are not followed.
         */
        post: operations["newPlant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    plantDeleted: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A plant was deleted
         * @description Sent to each active subscription that asked for plantDeleted (events) and covers the plant's owner, once a delete answered 204 is committed; never for a refused delete. The body is the id of the deleted plant, an int64: read it without rounding. Signed, retried and deduplicated by webhook-id as newPlant is. Events of one plant may arrive in any order.
         */
        post: operations["plantDeleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    plantUpdated: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A plant was changed
         * @description Sent to each active subscription that asked for plantUpdated (events) and covers the plant's owner, once a PATCH that changed the plant is committed; never for a refused or a no-op PATCH. The body is the plant after the change, with its id: read the id without rounding. Signed, retried and deduplicated by webhook-id as newPlant is. Events of one plant may arrive in any order: compare with GET /plants/{id} (its ETag is the version) when order matters.
         */
        post: operations["plantUpdated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    ping: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A ping of the subscription
         * @description Sent when POST /webhooks/{id}/ping asks for it, also while the subscription is disabled: to test an endpoint. Signed, retried and logged as the other events are.
         */
        post: operations["ping"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * ListedPlant
         * @description A plant in a list asked for with `include=id`: its id first, then the Plant
         * @example {
         *       "id": 7,
         *       "name": "Monstera",
         *       "tag": "indoor"
         *     }
         */
        ListedPlant: {
            /**
             * Format: int64
             * @description The id of the plant, an exact integer literal
             * @example 7
             */
            id: bigint;
            /** @description The name of the plant */
            name: string;
            /** @description Tag to specify the type; absent when the plant has none */
            tag?: string;
        };
        /**
         * RotatedSecret
         * @description A new secret, and until when the one it replaces still signs
         * @example {
         *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
         *       "previousSecretExpiresAt": "2026-11-25T08:00:00.000Z"
         *     }
         */
        RotatedSecret: {
            /**
             * @description The new signing secret, shown only in this answer
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
            /**
             * Format: date-time
             * @description Until then every delivery is signed with the previous secret too (WEBHOOK_SECRET_OVERLAP)
             */
            previousSecretExpiresAt: string;
        };
        /**
         * Delivery
         * @description One event of a subscription, from the outbox: what was sent and how its attempts went
         * @example {
         *       "id": "msg_2b1f0c9e4a774b8e9a512d1f0c9e4a77",
         *       "event": "newPlant",
         *       "plantId": 7,
         *       "state": "failed",
         *       "attempts": 8,
         *       "createdAt": "2026-11-24T08:00:00.000Z",
         *       "lastAttemptAt": "2026-11-26T12:00:00.000Z",
         *       "nextAttemptAt": null,
         *       "lastStatus": 503,
         *       "lastError": "HTTP 503: upstream unavailable"
         *     }
         */
        Delivery: {
            /** @description The webhook-id of the event: the same on every attempt and redelivery */
            id: string;
            /** @description The event type */
            event: "newPlant" | "plantDeleted" | "plantUpdated" | "ping";
            /**
             * Format: int64
             * @description The id of the plant the event is about; absent for a ping
             * @example 7
             */
            plantId?: bigint;
            /** @description pending: due or being retried; delivered: a 2xx came back; failed: given up after the last retry, or the subscription was disabled */
            state: "pending" | "delivered" | "failed";
            /**
             * Format: int32
             * @description Attempts since it was written or last requeued
             */
            attempts: number;
            /**
             * Format: date-time
             * @description When the event was written, in the transaction of its change
             */
            createdAt: string;
            /** @description When it was last attempted; null before the first attempt */
            lastAttemptAt: string | null;
            /** @description When it is due next while pending; null once delivered or failed */
            nextAttemptAt: string | null;
            /** @description The receiver's last HTTP status; null when there was no answer */
            lastStatus: number | null;
            /** @description What went wrong at the last attempt (no answer, or the start of a non-2xx answer); null after a 2xx */
            lastError: string | null;
        };
        /**
         * Recover
         * @description Which failed events to send again
         * @example {
         *       "since": "2026-11-24T00:00:00Z"
         *     }
         */
        Recover: {
            /**
             * Format: date-time
             * @description Failed events written at or after this time are due again
             */
            since: string;
        };
        /**
         * SubscriptionPatch
         * @description What to change in a subscription (a JSON merge patch of url, events and enabled); any other field is a 400
         * @example {
         *       "enabled": true
         *     }
         */
        SubscriptionPatch: {
            /**
             * Format: uri
             * @description Where each new plant is POSTed: an absolute http or https URL whose host is (and resolves to) a public address, unless WEBHOOK_ALLOWED_NETWORKS allows it
             * @example https://hooks.example.com/plantstore
             */
            url?: string;
            /**
             * @description The event types sent to the subscription: one or more of newPlant, plantDeleted, plantUpdated
             * @example [
             *       "newPlant",
             *       "plantDeleted"
             *     ]
             */
            events?: ("newPlant" | "plantDeleted" | "plantUpdated")[];
            /** @description true turns a disabled subscription back on, for events from then on */
            enabled?: boolean;
        };
        /**
         * Error
         * @description The body of every error response, on every path
         * @example {
         *       "error": 400,
         *       "message": "plant 7 already exists"
         *     }
         */
        Error: {
            /**
             * Format: int32
             * @description The HTTP status code of the response
             */
            error: number;
            /** @description What went wrong, for a human */
            message: string;
        };
        /**
         * Plant
         * @description A plant as the API returns it (its id is in its URL)
         * @example {
         *       "name": "Monstera",
         *       "tag": "indoor"
         *     }
         */
        Plant: {
            /** @description The name of the plant */
            name: string;
            /** @description Tag to specify the type; absent when the plant has none */
            tag?: string;
        };
        /**
         * NewPlant
         * @description A plant to create. Other properties are ignored and not stored.
         * @example {
         *       "id": 7,
         *       "name": "Monstera",
         *       "tag": "indoor"
         *     }
         */
        NewPlant: {
            /**
             * Format: int64
             * @description Identification number of the plant, unique in the store; every int64 is kept exactly
             * @example 7
             */
            id: bigint;
            /** @description The name of the plant: 1 to 200 characters (Unicode code points), not only white space, without U+0000 */
            name: string;
            /** @description Tag to specify the type: 0 to 100 characters, without U+0000 */
            tag?: string;
        };
        /**
         * PlantPatch
         * @description What to change in a plant: a JSON merge patch (RFC 7396) of name and tag. Any other member, id included, is a 400; {} changes nothing.
         * @example {
         *       "tag": null
         *     }
         * @example {
         *       "name": "Monstera deliciosa",
         *       "tag": "living room"
         *     }
         */
        PlantPatch: {
            /** @description The name of the plant: 1 to 200 characters (Unicode code points), not only white space, without U+0000 */
            name?: string;
            /** @description The new tag: 0 to 100 characters, without U+0000; null removes the tag */
            tag?: string | null;
        };
        /**
         * Status
         * @example {
         *       "status": "ready"
         *     }
         */
        Status: {
            /** @description ok: the process serves; ready: the database answers too */
            status: "ok" | "ready";
        };
        /**
         * NewSubscription
         * @description A webhook subscription to make
         * @example {
         *       "url": "https://hooks.example.com/plantstore"
         *     }
         */
        NewSubscription: {
            /**
             * Format: uri
             * @description Where each new plant is POSTed: an absolute http or https URL whose host is (and resolves to) a public address, unless WEBHOOK_ALLOWED_NETWORKS allows it
             * @example https://hooks.example.com/plantstore
             */
            url: string;
            /**
             * @description The event types to send; absent: newPlant only
             * @example [
             *       "newPlant",
             *       "plantDeleted"
             *     ]
             */
            events?: ("newPlant" | "plantDeleted" | "plantUpdated")[];
        };
        /**
         * Subscription
         * @description A webhook subscription; its secret is shown only when it is made
         * @example {
         *       "id": "wh_4fQ2r9LwXb1kN7sTz3aVyQ",
         *       "url": "https://hooks.example.com/plantstore",
         *       "events": [
         *         "newPlant"
         *       ],
         *       "allPlants": false,
         *       "enabled": true,
         *       "disabledReason": null,
         *       "createdAt": "2026-11-24T08:00:00.000Z",
         *       "status": "active"
         *     }
         */
        Subscription: {
            /**
             * @description The id of the subscription
             * @example wh_4fQ2r9LwXb1kN7sTz3aVyQ
             */
            id: string;
            /**
             * Format: uri
             * @description Where each new plant is POSTed: an absolute http or https URL whose host is (and resolves to) a public address, unless WEBHOOK_ALLOWED_NETWORKS allows it
             * @example https://hooks.example.com/plantstore
             */
            url: string;
            /**
             * @description The event types sent to the subscription: one or more of newPlant, plantDeleted, plantUpdated
             * @example [
             *       "newPlant",
             *       "plantDeleted"
             *     ]
             */
            events: ("newPlant" | "plantDeleted" | "plantUpdated")[];
            /** @description true when made with plants:admin: every plant, whoever owns it; else the subject's own */
            allPlants: boolean;
            /** @description false once disabled (410 Gone, or PATCH enabled: false): no event is written for it meanwhile */
            enabled: boolean;
            /** @description Why it was disabled; null while enabled */
            disabledReason: string | null;
            /**
             * Format: date-time
             * @description When the subscription was made
             */
            createdAt: string;
            /** @description active while enabled, else disabled (as enabled says; kept for earlier clients) */
            status: "active" | "disabled";
        };
        /**
         * CreatedSubscription
         * @description A subscription just made, with its secret
         * @example {
         *       "id": "wh_4fQ2r9LwXb1kN7sTz3aVyQ",
         *       "url": "https://hooks.example.com/plantstore",
         *       "events": [
         *         "newPlant"
         *       ],
         *       "allPlants": false,
         *       "enabled": true,
         *       "disabledReason": null,
         *       "createdAt": "2026-11-24T08:00:00.000Z",
         *       "status": "active",
         *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
         *     }
         */
        CreatedSubscription: {
            /**
             * @description The id of the subscription
             * @example wh_4fQ2r9LwXb1kN7sTz3aVyQ
             */
            id: string;
            /**
             * Format: uri
             * @description Where each new plant is POSTed: an absolute http or https URL whose host is (and resolves to) a public address, unless WEBHOOK_ALLOWED_NETWORKS allows it
             * @example https://hooks.example.com/plantstore
             */
            url: string;
            /**
             * @description The event types sent to the subscription: one or more of newPlant, plantDeleted, plantUpdated
             * @example [
             *       "newPlant",
             *       "plantDeleted"
             *     ]
             */
            events: ("newPlant" | "plantDeleted" | "plantUpdated")[];
            /** @description true when made with plants:admin: every plant, whoever owns it; else the subject's own */
            allPlants: boolean;
            /** @description false once disabled (410 Gone, or PATCH enabled: false): no event is written for it meanwhile */
            enabled: boolean;
            /** @description Why it was disabled; null while enabled */
            disabledReason: string | null;
            /**
             * Format: date-time
             * @description When the subscription was made
             */
            createdAt: string;
            /** @description active while enabled, else disabled (as enabled says; kept for earlier clients) */
            status: "active" | "disabled";
            /**
             * @description The signing secret (Standard Webhooks): shown only in this answer; keep it to verify webhook-signature
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    checkLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Always ok while the process serves */
            200: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Status"];
                };
            };
            /** @description The request is invalid (on any route: an HTTP/1.1 request without Host, a malformed request line or header); the message names what is wrong. Nothing was changed. */
            400: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This path does not allow the method; Allow lists those it does */
            405: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description The methods this path allows */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request did not arrive within REQUEST_TIMEOUT_MS; the connection is closed */
            408: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An Expect header other than 100-continue; nothing was done and the connection is closed */
            417: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A fault of the server; it is logged with the request id */
            500: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    checkReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready to serve */
            200: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Status"];
                };
            };
            /** @description The request is invalid (on any route: an HTTP/1.1 request without Host, a malformed request line or header); the message names what is wrong. Nothing was changed. */
            400: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This path does not allow the method; Allow lists those it does */
            405: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description The methods this path allows */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request did not arrive within REQUEST_TIMEOUT_MS; the connection is closed */
            408: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An Expect header other than 100-continue; nothing was done and the connection is closed */
            417: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A fault of the server; it is logged with the request id */
            500: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unavailable (or read-only, during a failover), or the service is shutting down; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text exposition format */
            200: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description The request is invalid (on any route: an HTTP/1.1 request without Host, a malformed request line or header); the message names what is wrong. Nothing was changed. */
            400: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This path does not allow the method; Allow lists those it does */
            405: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description The methods this path allows */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request did not arrive within REQUEST_TIMEOUT_MS; the connection is closed */
            408: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An Expect header other than 100-continue; nothing was done and the connection is closed */
            417: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A fault of the server; it is logged with the request id */
            500: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPlants: {
        parameters: {
            query?: {
                /**
                 * @description The maximum number of plants to return; absent means every accessible plant
                 * @example 100
                 */
                limit?: number;
                /**
                 * @description Return only plants with an id greater than this (paging)
                 * @example 7
                 */
                after?: bigint;
                /**
                 * @description Return only plants with exactly this tag
                 * @example indoor
                 */
                tag?: string;
                /** @description An extension: `id` gives each item its id, first (a ListedPlant); without it the items are Plants, as the specification says */
                include?: "id";
            };
            header?: {
                /**
                 * @description The plant list has no entity tag: * reads it as without the header; any tag is a 412. A malformed value is a 400.
                 * @example *
                 */
                "if-match"?: string;
                /**
                 * @description The plant list has no entity tag: tags never match it (200); * names the list, which always exists: 304 without a body. A malformed value is a 400.
                 * @example "3"
                 */
                "if-none-match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plants in ascending id order, streamed when there are many */
            200: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description RFC 8288 link to the next page, rel="next"; sent whenever the page holds exactly `limit` (> 0) plants */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Plant"] | components["schemas"]["ListedPlant"])[];
                };
            };
            /** @description If-None-Match is *, which names the list (it always exists); no body */
            304: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is invalid (on any route: an HTTP/1.1 request without Host, a malformed request line or header); the message names what is wrong. Nothing was changed. */
            400: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is unknown, expired or revoked */
            401: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This path does not allow the method; Allow lists those it does */
            405: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The methods this path allows */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request did not arrive within REQUEST_TIMEOUT_MS; the connection is closed */
            408: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match names a tag: the plant list has none; the list is not sent */
            412: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An Expect header other than 100-continue; nothing was done and the connection is closed */
            417: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this token or client address */
            429: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A fault of the server; it is logged with the request id */
            500: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unavailable (or read-only, during a failover), or the service is shutting down; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createPlant: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: 1 to 255 printable ASCII characters (bare, or as a quoted string), chosen by the client for this one request. Kept per subject for IDEMPOTENCY_TTL (24 h by default).
                 * @example 3f1c2a9e-create-monstera
                 */
                "idempotency-key"?: string;
                /**
                 * @description The plant list has no entity tag: * creates as without it; any tag is a 412 and nothing is created (RFC 9110 section 13.1.1)
                 * @example *
                 */
                "if-match"?: string;
                /**
                 * @description Create only where no plant is: with *, a plant whose id exists (whoever owns it) is a 412 instead of the 400 already exists; with tags ("3"), a 412 when your plant with that id is at one of them. A malformed value is a 400.
                 * @example *
                 */
                "if-none-match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewPlant"];
            };
        };
        responses: {
            /** @description The plant was created and committed; Location names it. A replayed create's ETag is the plant's current one, absent when it has since been deleted */
            200: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The path of the new plant: /plants/{id} */
                    Location?: string;
                    /** @description The plant's version as a strong entity tag, opaque and never given to two states of one id (a re-created plant's tags are all new): send it back in If-Match to change or delete only this version, in If-None-Match to poll */
                    ETag?: string;
                    /** @description Sent when this is the kept answer of an earlier request with the same Idempotency-Key */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plant"];
                };
            };
            /** @description The request is invalid (on any route: an HTTP/1.1 request without Host, a malformed request line or header); the message names what is wrong. Nothing was changed. */
            400: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is unknown, expired or revoked */
            401: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This path does not allow the method; Allow lists those it does */
            405: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The methods this path allows */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request did not arrive within REQUEST_TIMEOUT_MS; the connection is closed */
            408: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A request with this Idempotency-Key is still in flight */
            409: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match names a tag (the plant list has none), or If-None-Match names the plant that already has this id; nothing was created */
            412: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An Expect header other than 100-continue; nothing was done and the connection is closed */
            417: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This Idempotency-Key was already used for a different request */
            422: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this token or client address */
            429: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A fault of the server; it is logged with the request id */
            500: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unavailable (or read-only, during a failover), or the service is shutting down; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPlant: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Read only while the plant is at one of these versions: strong tags from ETag ("3"), comma-separated, or * (any version). Otherwise 412 without the plant; evaluated before If-None-Match. A malformed value is a 400.
                 * @example *
                 */
                "if-match"?: string;
                /**
                 * @description The ETag of the copy the client holds ("3", or several, or *): 304 without a body while it is still current; a malformed value is a 400
                 * @example "3"
                 */
                "if-none-match"?: string;
            };
            path: {
                /**
                 * @description The id of the plant
                 * @example 7
                 */
                id: bigint;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plant; ETag is its version */
            200: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The plant's version as a strong entity tag, opaque and never given to two states of one id (a re-created plant's tags are all new): send it back in If-Match to change or delete only this version, in If-None-Match to poll */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plant"];
                };
            };
            /** @description If-None-Match names the current version: the copy the client holds is current; no body */
            304: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The plant's version as a strong entity tag, opaque and never given to two states of one id (a re-created plant's tags are all new): send it back in If-Match to change or delete only this version, in If-None-Match to poll */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is invalid (on any route: an HTTP/1.1 request without Host, a malformed request line or header); the message names what is wrong. Nothing was changed. */
            400: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is unknown, expired or revoked */
            401: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No plant with this id that the caller may access */
            404: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This path does not allow the method; Allow lists those it does */
            405: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The methods this path allows */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request did not arrive within REQUEST_TIMEOUT_MS; the connection is closed */
            408: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match names no current version of the plant (If-Match is evaluated first); the plant is not sent */
            412: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An Expect header other than 100-continue; nothing was done and the connection is closed */
            417: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this token or client address */
            429: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A fault of the server; it is logged with the request id */
            500: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unavailable (or read-only, during a failover), or the service is shutting down; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deletePlant: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Write only while the plant is at one of these versions: strong tags from ETag ("3"), comma-separated, or * (any version). Otherwise 412 and nothing changes. A malformed value (3 without quotes) is a 400.
                 * @example "3"
                 */
                "if-match"?: string;
                /**
                 * @description Write only while the plant is at none of these versions (W/"3" names "3"); * never writes, the plant being there. Otherwise 412 and nothing changes. A malformed value is a 400.
                 * @example "3"
                 */
                "if-none-match"?: string;
            };
            path: {
                /**
                 * @description The id of the plant
                 * @example 7
                 */
                id: bigint;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plant was deleted; no body */
            204: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is invalid (on any route: an HTTP/1.1 request without Host, a malformed request line or header); the message names what is wrong. Nothing was changed. */
            400: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is unknown, expired or revoked */
            401: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No plant with this id that the caller may access */
            404: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This path does not allow the method; Allow lists those it does */
            405: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The methods this path allows */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request did not arrive within REQUEST_TIMEOUT_MS; the connection is closed */
            408: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match names no current version (on POST /plants: any tag, the list has none), or If-None-Match names the current one; nothing was changed */
            412: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An Expect header other than 100-continue; nothing was done and the connection is closed */
            417: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description REQUIRE_IF_MATCH is on: send If-Match with the ETag of the version you read (or *) */
            428: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this token or client address */
            429: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A fault of the server; it is logged with the request id */
            500: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unavailable (or read-only, during a failover), or the service is shutting down; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updatePlant: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Write only while the plant is at one of these versions: strong tags from ETag ("3"), comma-separated, or * (any version). Otherwise 412 and nothing changes. A malformed value (3 without quotes) is a 400.
                 * @example "3"
                 */
                "if-match"?: string;
                /**
                 * @description Write only while the plant is at none of these versions (W/"3" names "3"); * never writes, the plant being there. Otherwise 412 and nothing changes. A malformed value is a 400.
                 * @example "3"
                 */
                "if-none-match"?: string;
            };
            path: {
                /**
                 * @description The id of the plant
                 * @example 7
                 */
                id: bigint;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/merge-patch+json": components["schemas"]["PlantPatch"];
                "application/json": components["schemas"]["PlantPatch"];
            };
        };
        responses: {
            /** @description The plant after the change; ETag is its new version */
            200: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The plant's version as a strong entity tag, opaque and never given to two states of one id (a re-created plant's tags are all new): send it back in If-Match to change or delete only this version, in If-None-Match to poll */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plant"];
                };
            };
            /** @description The request is invalid (on any route: an HTTP/1.1 request without Host, a malformed request line or header); the message names what is wrong. Nothing was changed. */
            400: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is unknown, expired or revoked */
            401: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No plant with this id that the caller may access */
            404: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This path does not allow the method; Allow lists those it does */
            405: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The methods this path allows */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request did not arrive within REQUEST_TIMEOUT_MS; the connection is closed */
            408: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match names no current version (on POST /plants: any tag, the list has none), or If-None-Match names the current one; nothing was changed */
            412: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An Expect header other than 100-continue; nothing was done and the connection is closed */
            417: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description REQUIRE_IF_MATCH is on: send If-Match with the ETag of the version you read (or *) */
            428: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this token or client address */
            429: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A fault of the server; it is logged with the request id */
            500: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unavailable (or read-only, during a failover), or the service is shutting down; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSubscriptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscriptions */
            200: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"][];
                };
            };
            /** @description The request is invalid (on any route: an HTTP/1.1 request without Host, a malformed request line or header); the message names what is wrong. Nothing was changed. */
            400: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is unknown, expired or revoked */
            401: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This path does not allow the method; Allow lists those it does */
            405: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The methods this path allows */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request did not arrive within REQUEST_TIMEOUT_MS; the connection is closed */
            408: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An Expect header other than 100-continue; nothing was done and the connection is closed */
            417: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this token or client address */
            429: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A fault of the server; it is logged with the request id */
            500: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unavailable (or read-only, during a failover), or the service is shutting down; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewSubscription"];
            };
        };
        responses: {
            /** @description The subscription was made; Location names it */
            201: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The path of the subscription: /webhooks/{id} */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedSubscription"];
                };
            };
            /** @description The request is invalid (on any route: an HTTP/1.1 request without Host, a malformed request line or header); the message names what is wrong. Nothing was changed. */
            400: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is unknown, expired or revoked */
            401: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This path does not allow the method; Allow lists those it does */
            405: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The methods this path allows */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request did not arrive within REQUEST_TIMEOUT_MS; the connection is closed */
            408: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An Expect header other than 100-continue; nothing was done and the connection is closed */
            417: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this token or client address */
            429: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A fault of the server; it is logged with the request id */
            500: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unavailable (or read-only, during a failover), or the service is shutting down; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The id of the subscription
                 * @example wh_4fQ2r9LwXb1kN7sTz3aVyQ
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription */
            200: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description The request is invalid (on any route: an HTTP/1.1 request without Host, a malformed request line or header); the message names what is wrong. Nothing was changed. */
            400: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is unknown, expired or revoked */
            401: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No webhook subscription with this id that the caller may access */
            404: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This path does not allow the method; Allow lists those it does */
            405: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The methods this path allows */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request did not arrive within REQUEST_TIMEOUT_MS; the connection is closed */
            408: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An Expect header other than 100-continue; nothing was done and the connection is closed */
            417: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this token or client address */
            429: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A fault of the server; it is logged with the request id */
            500: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unavailable (or read-only, during a failover), or the service is shutting down; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description Refused: a webhook subscription has no entity tag, so If-Match cannot be evaluated; any value is a 400 and nothing changes */
                "if-match"?: string;
                /** @description Refused: a webhook subscription has no entity tag, so If-None-Match cannot be evaluated; any value is a 400 and nothing changes */
                "if-none-match"?: string;
            };
            path: {
                /**
                 * @description The id of the subscription
                 * @example wh_4fQ2r9LwXb1kN7sTz3aVyQ
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription was deleted; no body */
            204: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is invalid (on any route: an HTTP/1.1 request without Host, a malformed request line or header); the message names what is wrong. Nothing was changed. */
            400: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is unknown, expired or revoked */
            401: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No webhook subscription with this id that the caller may access */
            404: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This path does not allow the method; Allow lists those it does */
            405: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The methods this path allows */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request did not arrive within REQUEST_TIMEOUT_MS; the connection is closed */
            408: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An Expect header other than 100-continue; nothing was done and the connection is closed */
            417: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this token or client address */
            429: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A fault of the server; it is logged with the request id */
            500: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unavailable (or read-only, during a failover), or the service is shutting down; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description Refused: a webhook subscription has no entity tag, so If-Match cannot be evaluated; any value is a 400 and nothing changes */
                "if-match"?: string;
                /** @description Refused: a webhook subscription has no entity tag, so If-None-Match cannot be evaluated; any value is a 400 and nothing changes */
                "if-none-match"?: string;
            };
            path: {
                /**
                 * @description The id of the subscription
                 * @example wh_4fQ2r9LwXb1kN7sTz3aVyQ
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionPatch"];
                "application/merge-patch+json": components["schemas"]["SubscriptionPatch"];
            };
        };
        responses: {
            /** @description The subscription as it is now */
            200: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description The request is invalid (on any route: an HTTP/1.1 request without Host, a malformed request line or header); the message names what is wrong. Nothing was changed. */
            400: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is unknown, expired or revoked */
            401: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No webhook subscription with this id that the caller may access */
            404: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This path does not allow the method; Allow lists those it does */
            405: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The methods this path allows */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request did not arrive within REQUEST_TIMEOUT_MS; the connection is closed */
            408: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An Expect header other than 100-continue; nothing was done and the connection is closed */
            417: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this token or client address */
            429: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A fault of the server; it is logged with the request id */
            500: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unavailable (or read-only, during a failover), or the service is shutting down; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The id of the subscription
                 * @example wh_4fQ2r9LwXb1kN7sTz3aVyQ
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new secret */
            200: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotatedSecret"];
                };
            };
            /** @description The request is invalid (on any route: an HTTP/1.1 request without Host, a malformed request line or header); the message names what is wrong. Nothing was changed. */
            400: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is unknown, expired or revoked */
            401: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No webhook subscription with this id that the caller may access */
            404: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This path does not allow the method; Allow lists those it does */
            405: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The methods this path allows */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request did not arrive within REQUEST_TIMEOUT_MS; the connection is closed */
            408: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An Expect header other than 100-continue; nothing was done and the connection is closed */
            417: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this token or client address */
            429: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A fault of the server; it is logged with the request id */
            500: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unavailable (or read-only, during a failover), or the service is shutting down; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDeliveries: {
        parameters: {
            query?: {
                /**
                 * @description Events per page (default 50)
                 * @example 50
                 */
                limit?: number;
                /**
                 * @description Only events written before this cursor: follow the Link header rel="next" as given
                 * @example 4815
                 */
                before?: bigint;
            };
            header?: never;
            path: {
                /**
                 * @description The id of the subscription
                 * @example wh_4fQ2r9LwXb1kN7sTz3aVyQ
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The events, newest first */
            200: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description RFC 8288 link to the next page, rel="next"; sent whenever the page holds exactly `limit` (> 0) plants */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Delivery"][];
                };
            };
            /** @description The request is invalid (on any route: an HTTP/1.1 request without Host, a malformed request line or header); the message names what is wrong. Nothing was changed. */
            400: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is unknown, expired or revoked */
            401: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No webhook subscription with this id that the caller may access */
            404: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This path does not allow the method; Allow lists those it does */
            405: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The methods this path allows */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request did not arrive within REQUEST_TIMEOUT_MS; the connection is closed */
            408: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An Expect header other than 100-continue; nothing was done and the connection is closed */
            417: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this token or client address */
            429: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A fault of the server; it is logged with the request id */
            500: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unavailable (or read-only, during a failover), or the service is shutting down; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    redeliverEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The id of the subscription
                 * @example wh_4fQ2r9LwXb1kN7sTz3aVyQ
                 */
                id: string;
                /**
                 * @description The webhook-id of the event
                 * @example msg_2b1f0c9e4a774b8e9a512d1f0c9e4a77
                 */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event is due again; its deliveries log shows the attempts */
            202: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is invalid (on any route: an HTTP/1.1 request without Host, a malformed request line or header); the message names what is wrong. Nothing was changed. */
            400: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is unknown, expired or revoked */
            401: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No webhook subscription with this id that the caller may access, or no event with this webhook-id in it */
            404: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This path does not allow the method; Allow lists those it does */
            405: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The methods this path allows */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request did not arrive within REQUEST_TIMEOUT_MS; the connection is closed */
            408: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The subscription is disabled: nothing is sent to it but a ping; enable it first (PATCH enabled: true) */
            409: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An Expect header other than 100-continue; nothing was done and the connection is closed */
            417: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this token or client address */
            429: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A fault of the server; it is logged with the request id */
            500: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unavailable (or read-only, during a failover), or the service is shutting down; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    recoverEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The id of the subscription
                 * @example wh_4fQ2r9LwXb1kN7sTz3aVyQ
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Recover"];
            };
        };
        responses: {
            /** @description How many events are due again */
            202: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: int32
                         * @description How many failed events are due again
                         */
                        requeued: number;
                    };
                };
            };
            /** @description The request is invalid (on any route: an HTTP/1.1 request without Host, a malformed request line or header); the message names what is wrong. Nothing was changed. */
            400: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is unknown, expired or revoked */
            401: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No webhook subscription with this id that the caller may access */
            404: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This path does not allow the method; Allow lists those it does */
            405: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The methods this path allows */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request did not arrive within REQUEST_TIMEOUT_MS; the connection is closed */
            408: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The subscription is disabled: nothing is sent to it but a ping; enable it first (PATCH enabled: true) */
            409: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An Expect header other than 100-continue; nothing was done and the connection is closed */
            417: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this token or client address */
            429: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A fault of the server; it is logged with the request id */
            500: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unavailable (or read-only, during a failover), or the service is shutting down; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pingSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The id of the subscription
                 * @example wh_4fQ2r9LwXb1kN7sTz3aVyQ
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ping is due now; its webhook-id */
            202: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The webhook-id of the ping event, as its deliveries log shows it */
                        id: string;
                    };
                };
            };
            /** @description The request is invalid (on any route: an HTTP/1.1 request without Host, a malformed request line or header); the message names what is wrong. Nothing was changed. */
            400: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No bearer token, or one that is unknown, expired or revoked */
            401: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token lacks the scope this operation needs */
            403: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No webhook subscription with this id that the caller may access */
            404: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This path does not allow the method; Allow lists those it does */
            405: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description The methods this path allows */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request did not arrive within REQUEST_TIMEOUT_MS; the connection is closed */
            408: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An Expect header other than 100-continue; nothing was done and the connection is closed */
            417: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests for this token or client address */
            429: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are too large */
            431: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current minute (with RATE_LIMIT) */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the current minute ends (with RATE_LIMIT) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A fault of the server; it is logged with the request id */
            500: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database is unavailable (or read-only, during a failover), or the service is shutting down; retry after Retry-After seconds */
            503: {
                headers: {
                    /** @description The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one */
                    "X-Request-Id"?: string;
                    /** @description The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    newPlant: {
        parameters: {
            query?: never;
            header: {
                /** @description The id of this event for this subscription: the same on every retry */
                "webhook-id": string;
                /** @description When this attempt was sent, in Unix seconds */
                "webhook-timestamp": string;
                /** @description v1, and the base64 HMAC-SHA256 of '{webhook-id}.{webhook-timestamp}.{body}' keyed with the secret's bytes after whsec_; during a secret rotation's overlap, two space-separated entries */
                "webhook-signature": string;
                /** @description The event type of the delivery */
                "plantstore-event": "newPlant";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewPlant"];
            };
        };
        responses: {
            /** @description Received (any 2xx will do) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the subscription is disabled and sent nothing more */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    plantDeleted: {
        parameters: {
            query?: never;
            header: {
                /** @description The id of this event for this subscription: the same on every retry */
                "webhook-id": string;
                /** @description When this attempt was sent, in Unix seconds */
                "webhook-timestamp": string;
                /** @description v1, and the base64 HMAC-SHA256 of '{webhook-id}.{webhook-timestamp}.{body}' keyed with the secret's bytes after whsec_; during a secret rotation's overlap, two space-separated entries */
                "webhook-signature": string;
                /** @description The event type of the delivery */
                "plantstore-event": "plantDeleted";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: int64
                     * @description The id of the deleted plant
                     */
                    id: bigint;
                };
            };
        };
        responses: {
            /** @description Received (any 2xx will do) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the subscription is disabled and sent nothing more */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    plantUpdated: {
        parameters: {
            query?: never;
            header: {
                /** @description The id of this event for this subscription: the same on every retry */
                "webhook-id": string;
                /** @description When this attempt was sent, in Unix seconds */
                "webhook-timestamp": string;
                /** @description v1, and the base64 HMAC-SHA256 of '{webhook-id}.{webhook-timestamp}.{body}' keyed with the secret's bytes after whsec_; during a secret rotation's overlap, two space-separated entries */
                "webhook-signature": string;
                /** @description The event type of the delivery */
                "plantstore-event": "plantUpdated";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewPlant"];
            };
        };
        responses: {
            /** @description Received (any 2xx will do) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the subscription is disabled and sent nothing more */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    ping: {
        parameters: {
            query?: never;
            header: {
                /** @description The id of this event for this subscription: the same on every retry */
                "webhook-id": string;
                /** @description When this attempt was sent, in Unix seconds */
                "webhook-timestamp": string;
                /** @description v1, and the base64 HMAC-SHA256 of '{webhook-id}.{webhook-timestamp}.{body}' keyed with the secret's bytes after whsec_; during a secret rotation's overlap, two space-separated entries */
                "webhook-signature": string;
                /** @description The event type of the delivery */
                "plantstore-event": "ping";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The id of the subscription pinged */
                    subscription: string;
                };
            };
        };
        responses: {
            /** @description Received (any 2xx will do) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the subscription is disabled and sent nothing more */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
