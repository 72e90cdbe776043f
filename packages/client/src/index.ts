export { type ClientOptions, type ListOptions, type NextPage, type PlantPage, PlantStoreClient } from './client.js'
export { MalformedAnswerError, PlantStoreConnectionError, PlantStoreError } from './errors.js'
export type {
  ListedPlant,
  CreatedSubscription,
  Delivery,
  EventName,
  NewPlant,
  Plant,
  PlantPatch,
  Subscription,
  SubscriptionPatch,
  VersionedPlant,
  CreatedPlant,
} from './types.js'
export {
  WEBHOOK_EVENT_TYPES,
  type WebhookEvent,
  type WebhookEventType,
  WebhookVerificationError,
  verifyWebhook,
  verifyWebhookEvent,
} from './webhook.js'
export type { components, operations, paths } from './generated/openapi.js'
