import { join } from 'node:path'
import { REPO_ROOT } from '../service.js'
import { must, run } from './podman.js'

/** The tag `npm run test:container` builds and tests. */
export const TEST_IMAGE = 'localhost/plantstore:test'

const STAND_INS = join(REPO_ROOT, 'test', 'container', 'stand-ins')

/** Images that compose.yaml names but that cannot be pulled here, built from Debian's packages. */
export const STAND_IN_IMAGES = {
  postgres: 'localhost/plantstore-stand-in-postgres:test',
  proxy: 'localhost/plantstore-stand-in-nginx:test',
}

async function imageId(tag: string): Promise<string | null> {
  const result = await run('podman', ['image', 'inspect', '--format', '{{.Id}}', tag])
  return result.code === 0 ? result.stdout.trim() : null
}

/**
 * Builds a Containerfile on the given base, the way these hosts can build, and removes the image
 * the tag named before: each run would otherwise leave half a gigabyte behind, untagged.
 */
async function build(tag: string, containerfile: string, context: string, baseImage: string): Promise<void> {
  const previous = await imageId(tag)
  await must(
    'buildah',
    [
      'bud',
      // Chroot isolation and the host's network: what builds on a VM without nested namespaces.
      '--isolation',
      'chroot',
      '--network',
      'host',
      '--layers=false',
      '--build-arg',
      `BASE_IMAGE=${baseImage}`,
      '--tag',
      tag,
      '--file',
      containerfile,
      context,
    ],
    { timeoutMs: 1_800_000 },
  )
  if (previous !== null && previous !== (await imageId(tag))) await run('podman', ['image', 'rm', previous])
}

/** The repository's Containerfile, as localhost/plantstore:test. */
export function buildImage(baseImage: string): Promise<void> {
  return build(TEST_IMAGE, join(REPO_ROOT, 'Containerfile'), REPO_ROOT, baseImage)
}

export async function buildStandIns(baseImage: string): Promise<void> {
  await build(STAND_IN_IMAGES.postgres, join(STAND_INS, 'postgres.Containerfile'), STAND_INS, baseImage)
  await build(STAND_IN_IMAGES.proxy, join(STAND_INS, 'nginx.Containerfile'), STAND_INS, baseImage)
}

/** Throws unless every image the container tests use has been built (by `npm run test:container`). */
export async function assertImagesBuilt(): Promise<void> {
  for (const image of [TEST_IMAGE, ...Object.values(STAND_IN_IMAGES)]) {
    if ((await run('podman', ['image', 'exists', image])).code !== 0) {
      throw new Error(`${image} is missing: npm run test:container builds it before the tests`)
    }
  }
}
