import { join } from 'node:path'
import { launchChromium } from '../support/browser.js'
import { Receiver } from '../support/receiver.js'
import { REPO_ROOT, startService, tempFolder } from '../support/service.js'

// Two pictures of the console for the README and docs/console.md, taken from a running
// service (a scratch SQLite database) and a receiver that answers 503, never drawn.

const IMAGES = join(REPO_ROOT, 'docs', 'images')
const PLANTS = [
  ['7', 'Monstera deliciosa', 'tropical'],
  ['12', 'Boston fern', 'shade'],
  ['31', 'Snake plant', 'indoor'],
  ['44', 'Fiddle-leaf fig', 'indoor'],
  ['9007199254740993', 'Olive tree', 'outdoor'],
] as const

const folder = tempFolder()
const receiver = await Receiver.start()
receiver.answer = (request) => ({ status: request.body.includes('Olive') ? 200 : 503 })
const service = await startService({
  DATABASE_URL: `sqlite:${join(folder.path, 'console.db')}`,
  WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
  WEBHOOK_RETRY_DELAYS: '100ms',
})
const browser = await launchChromium({ width: 1000, height: 560 })
try {
  const token = /^(pst_\S+)$/m.exec(service.stderr())?.[1] ?? ''
  const call = async (method: string, path: string, body?: string) => {
    const answer = await fetch(service.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body }),
    })
    if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`)
    return answer.text()
  }
  const { id } = JSON.parse(
    await call('POST', '/webhooks', JSON.stringify({ url: receiver.url('/plants'), events: ['newPlant', 'plantDeleted'] })),
  ) as {
    id: string
  }
  for (const [plantId, name, tag] of PLANTS)
    await call('POST', '/plants', `{"id":${plantId},"name":${JSON.stringify(name)},"tag":"${tag}"}`)
  await call('DELETE', '/plants/12')
  await receiver.until((received) => received.length >= 2 * PLANTS.length)

  const page = await browser.context.newPage()
  await page.goto(`${service.url}/console`)
  await page.getByLabel('Token').fill(token)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('cell', { name: 'Olive tree' }).waitFor()
  await page.screenshot({ path: join(IMAGES, 'console-plants.png') })
  await page.goto(`${service.url}/console#/webhooks/${id}`)
  await page.getByRole('cell', { name: 'delivered' }).waitFor()
  await page.screenshot({ path: join(IMAGES, 'console-deliveries.png') })
  console.log(`wrote ${join('docs', 'images', 'console-plants.png')} and ${join('docs', 'images', 'console-deliveries.png')}`)
} finally {
  await browser.close()
  await service.stop()
  await receiver.close()
  folder.remove()
}
