import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { REPO_ROOT, tempFolder } from '../../support/service.js'

const run = promisify(execFile)

/** The commit of the release before this one, as PREVIOUS_RELEASE names it (moved on when a release is cut). */
export const PREVIOUS_RELEASE = readFileSync(join(REPO_ROOT, 'PREVIOUS_RELEASE'), 'utf8').trim()

export interface Installed {
  /** The folder holding the release, built and ready: its `bin/plantstore` runs. */
  root: string
  /** How long the install took, in milliseconds. */
  installMs: number
  remove(): void
}

/**
 * Checks the release out of this repository's own history into a temporary folder (git
 * archive: the clone's worktree and index stay untouched), installs its locked packages from
 * the npm cache when it holds them, and builds it with its own build script.
 */
export async function installPreviousRelease(): Promise<Installed> {
  // A developer rerunning the test may point at a checkout of PREVIOUS_RELEASE installed already.
  const ready = process.env.PREVIOUS_RELEASE_ROOT
  if (ready) return { root: ready, installMs: 0, remove: () => {} }
  if (!/^[0-9a-f]{40}$/.test(PREVIOUS_RELEASE)) throw new Error(`PREVIOUS_RELEASE must hold a full commit id, not '${PREVIOUS_RELEASE}'`)
  const folder = tempFolder()
  try {
    const archive = join(folder.path, 'release.tar')
    await run('git', ['-C', REPO_ROOT, 'archive', '--format=tar', '-o', archive, PREVIOUS_RELEASE])
    const root = join(folder.path, 'release')
    await run('mkdir', [root])
    await run('tar', ['-xf', archive, '-C', root])
    const started = performance.now()
    const npm = (args: string[]) =>
      run('npm', args, { cwd: root, timeout: 15 * 60_000, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, CI: 'true' } })
    // Without install scripts: they compile SQLite's native addon from source wherever its
    // prebuilt binary cannot be fetched (19 min for 30e0bae's two on a busy 2-core machine),
    // and this release runs on PostgreSQL only, which loads no addon.
    await npm(['ci', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'])
    await npm(['run', 'build'])
    return { root, installMs: performance.now() - started, remove: folder.remove }
  } catch (error) {
    folder.remove()
    throw error
  }
}
