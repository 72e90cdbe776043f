import { copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { tempFolder } from '../service.js'
import { must, run } from './podman.js'

/** The base image the tests build on, in place of the official Node.js 22 image. */
export const STAND_IN_BASE = 'localhost/plantstore-base:22'

const SEARCH_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
// Egress TLS from this kind of machine may be re-signed by a proxy whose CA only the host trusts.
const HOST_CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt'
const CA_INSIDE = '/usr/local/share/host-ca-certificates.crt'

/** The Debian mirror the host's apt uses: debootstrap must reach the same one. */
function debianMirror(): string {
  const folder = '/etc/apt/sources.list.d'
  const texts = readdirSync(folder).map((name) => readFileSync(join(folder, name), 'utf8'))
  try {
    texts.push(readFileSync('/etc/apt/sources.list', 'utf8'))
  } catch {
    // deb822 sources alone are the default since Debian 12.
  }
  for (const text of texts) {
    const mirror = /^URIs:\s*(\S+\/debian)\s*$/m.exec(text) ?? /^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\s/m.exec(text)
    if (mirror?.[1]) return mirror[1]
  }
  throw new Error('no Debian mirror found in the apt sources of this host')
}

/** Fetches a package tarball from the npm registry and unpacks the given members of it into `into`. */
async function unpackNpmPackage(spec: string, scratch: string, into: string, members: string[]): Promise<void> {
  const file = (await must('npm', ['pack', '--silent', '--pack-destination', scratch, spec], { timeoutMs: 300_000 }))
    .trim()
    .split('\n')
    .at(-1)
  mkdirSync(into, { recursive: true })
  await must('tar', ['-xzf', join(scratch, file ?? ''), '-C', into, '--strip-components=1', ...members])
}

/**
 * No image registry is reachable from these machines, so the official Node.js base cannot be
 * pulled. This builds a stand-in once (Debian bookworm minbase, the Node.js 22 binary and npm
 * from the npm registry) and keeps it in local storage; later runs reuse it.
 */
export async function ensureStandInBase(): Promise<string> {
  if ((await run('podman', ['image', 'exists', STAND_IN_BASE])).code === 0) return STAND_IN_BASE
  const scratch = tempFolder()
  try {
    const rootfs = join(scratch.path, 'rootfs')
    await must('debootstrap', ['--variant=minbase', 'bookworm', rootfs, debianMirror()], { timeoutMs: 900_000 })
    const local = join(rootfs, 'usr', 'local')
    await unpackNpmPackage(`node-${process.platform}-${process.arch}@22`, scratch.path, local, ['package/bin', 'package/include'])
    await unpackNpmPackage('npm@11', scratch.path, join(local, 'lib', 'node_modules', 'npm'), [])
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(local, 'bin', 'npm'))
    symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(local, 'bin', 'npx'))
    copyFileSync(HOST_CA_BUNDLE, join(rootfs, CA_INSIDE))
    const tarball = join(scratch.path, 'rootfs.tar')
    await must('tar', ['-C', rootfs, '-cf', tarball, '.'], { timeoutMs: 300_000 })
    await must(
      'podman',
      [
        'import',
        '--change',
        `ENV PATH=${SEARCH_PATH}`,
        '--change',
        `ENV NODE_EXTRA_CA_CERTS=${CA_INSIDE}`,
        // node-gyp would download the headers; they came with the binary.
        '--change',
        'ENV npm_config_nodedir=/usr/local',
        '--change',
        'CMD ["node"]',
        tarball,
        STAND_IN_BASE,
      ],
      { timeoutMs: 300_000 },
    )
    return STAND_IN_BASE
  } finally {
    scratch.remove()
  }
}
