/**
 * Prints the suite's test files, the slowest first: the runner starts them in this order, so a
 * long file does not begin last and run alone at the end while the other slots stand idle.
 *
 *   node --test … $(node dist/test/helpers/suite-files.js)
 *
 * The list below is each file's time in a run of the whole suite on Node.js 20 (the durations
 * reporter prints them); files not in it follow in name order. A stale list costs only minutes.
 */
import { readdirSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const SLOWEST_FIRST = [
  'litestream-replica-faults',
  'console-plants',
  'webhooks-durability',
  'lint',
  'config-cli',
  'webhook-outbox',
  'litestream',
  'copy',
  'tracing-settings',
  'webhook-subscription-changes',
  'console-webhooks',
  'fuzz',
  'backup',
  'dependency-failures',
  'migrations',
  'idempotency-key',
  'document',
  'alerts-live',
  'hardening',
  'webhook-secret-reseal',
  'auth',
  'stream',
  'webhook-secret-key-mismatch',
  'disk',
  'durability',
]

const folder = join(dirname(fileURLToPath(import.meta.url)), '..')
const files = readdirSync(folder)
  .filter((name) => name.endsWith('.test.js'))
  .sort()
const rank = (name: string) => {
  const at = SLOWEST_FIRST.indexOf(name.slice(0, -'.test.js'.length))
  return at === -1 ? SLOWEST_FIRST.length : at
}
const ordered = files.sort((a, b) => rank(a) - rank(b))
process.stdout.write(ordered.map((name) => relative(process.cwd(), join(folder, name))).join('\n') + '\n')
