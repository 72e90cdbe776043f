import { REPO_ROOT } from '../service.js'
import { must } from './podman.js'

/** The tag `npm run test:container` builds and tests. */
export const TEST_IMAGE = 'localhost/plantstore:test'

/** Builds the repository's Containerfile on the given base, the way these hosts can build. */
export async function buildImage(baseImage: string): Promise<void> {
  await must(
    'buildah',
    [
      'bud',
      // Chroot isolation and the host's network: what builds on a VM without nested namespaces.
      '--isolation', 'chroot',
      '--network', 'host',
      '--layers=false',
      '--build-arg', `BASE_IMAGE=${baseImage}`,
      '--tag', TEST_IMAGE,
      '--file', 'Containerfile',
      REPO_ROOT,
    ],
    1_800_000,
  )
}
