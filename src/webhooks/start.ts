import type { FastifyInstance } from 'fastify'
import type { WebhookConfig } from '../config/config.js'
import type { Outbox } from '../store/outbox.js'
import { AddressPolicy } from './address-policy.js'
import { DeliveryWorker } from './delivery-worker.js'
import { type AttemptSender, Sender } from './sender.js'
import { TracedSender } from './traced-sender.js'

/**
 * Delivers webhook events while the app runs: from when it is ready until it starts to close
 * (a stop claims nothing more; leases cover what is cut off). With `traced`, each attempt is a CLIENT span in its write's trace.
 */
export function startDeliveries(app: FastifyInstance, outbox: Outbox, config: WebhookConfig, traced = false): DeliveryWorker {
  const plain = new Sender(new AddressPolicy(config.allowedNetworks), config.timeoutMs)
  const sender: AttemptSender = traced ? new TracedSender(plain) : plain
  const worker = new DeliveryWorker(outbox, sender, config, app.log)
  app.addHook('onReady', async () => worker.start())
  app.addHook('preClose', async () => worker.stop())
  return worker
}
