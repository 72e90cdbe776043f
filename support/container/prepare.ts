import { buildImage, buildStandIns } from './image.js'
import { containersUnavailable } from './podman.js'
import { ensureStandInBase } from './stand-in-base.js'

/** `npm run test:container`, first step: the images every container test runs, built once. */
const unavailable = await containersUnavailable()
if (unavailable) {
  console.log(`# no images built: ${unavailable}`)
} else {
  for (const [what, step] of [
    ['stand-in base', ensureStandInBase],
    ['localhost/plantstore:test', async () => buildImage(await ensureStandInBase())],
    ['stand-ins for PostgreSQL and nginx', async () => buildStandIns(await ensureStandInBase())],
  ] as const) {
    const started = Date.now()
    await step()
    console.log(`# built ${what} in ${((Date.now() - started) / 1000).toFixed(0)} s`)
  }
}
