import assert from 'node:assert/strict'
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { chmodSync, chownSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { pathToFileURL } from 'node:url'
import { LITESTREAM, LITESTREAM_CONFIG } from '../support/litestream.js'
import { REPO_ROOT, tempFolder } from '../support/service.js'

// The service under `litestream replicate -exec` (Litestream 0.3.13, as the image runs it) with
// a `file` replica that cannot be written: at start it must stop with one line.

const CLI = join(REPO_ROOT, 'bin', 'plantstore')
const asNobody = (...args: string[]) => spawnSync('runuser', ['-u', 'nobody', '--', ...args], { encoding: 'utf8', timeout: 60_000 })

function skipReason(): string | false {
  if (LITESTREAM === null) return `Litestream's npm package has no binary for ${process.platform}-${process.arch}`
  if (process.getuid?.() !== 0) return 'needs root, to run Litestream and the service as the user nobody'
  const readable = asNobody(process.execPath, '-e', `require('fs').accessSync(${JSON.stringify(CLI)})`).status === 0
  return readable ? false : 'needs runuser and a checkout the user nobody can read'
}
const skip = skipReason()

interface UnderLitestream {
  process: ChildProcess
  output(): string
  /** Its exit code, or null if it still runs after `withinMs`. */
  exited(withinMs: number): Promise<number | null>
  stop(): Promise<void>
}

/**
 * `litestream replicate -exec "plantstore serve"` as the image runs it, as the user nobody (or
 * after `wrapper`, such as an `unshare` that mounts a read-only file system first).
 */
function serveUnderLitestream(env: Record<string, string>, wrapper: string[] = ['runuser', '-u', 'nobody', '--']): UnderLitestream {
  // As the image's entrypoint does: Litestream's configuration names the file DATABASE_URL names.
  const database = { PLANTSTORE_DB_PATH: (env.DATABASE_URL ?? '').slice('sqlite:'.length) }
  const vars = Object.entries({ PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...database, ...env }).map(
    ([k, v]) => `${k}=${v}`,
  )
  const command = [...wrapper, 'env', '-i', ...vars, LITESTREAM as string, 'replicate', '-config', LITESTREAM_CONFIG]
  const child = spawn(command[0] as string, [...command.slice(1), '-exec', `${process.execPath} ${CLI} serve`], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exit = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), signal)
    } catch {
      // Already gone.
    }
  }
  return {
    process: child,
    output: () => output,
    exited: async (withinMs) => {
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), withinMs)))
      const code = await Promise.race([exit.then(([exitCode]) => exitCode), late])
      clearTimeout(timer)
      return code
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      signalGroup('SIGTERM')
      const timer = setTimeout(() => signalGroup('SIGKILL'), 10_000)
      await exit
      clearTimeout(timer)
    },
  }
}

/** A folder the user nobody owns, inside a temporary folder others may enter. */
function nobodysFolder(parent: string, name: string): string {
  const path = join(parent, name)
  mkdirSync(path)
  chownSync(path, Number(asNobody('id', '-u').stdout.trim()), Number(asNobody('id', '-g').stdout.trim()))
  return path
}

describe('Litestream with a replica that cannot be written', { skip }, () => {
  test('a replica folder the service user cannot write stops the start with one line: the replica and permission denied', async () => {
    const folder = tempFolder()
    chmodSync(folder.path, 0o755)
    // A volume mounted as root: the service user may read it, not write it.
    const mount = join(folder.path, 'replica-volume')
    mkdirSync(mount, { mode: 0o755 })
    const replica = join(mount, 'plantstore')
    const run = serveUnderLitestream({
      DATABASE_URL: `sqlite:${join(nobodysFolder(folder.path, 'data'), 'plantstore.db')}`,
      LITESTREAM_REPLICA_URL: pathToFileURL(replica).href,
    })
    try {
      const code = await run.exited(30_000)
      assert.notEqual(code, null, `it stopped instead of serving without replication: ${run.output()}`)
      assert.notEqual(code, 0)
      const ours = run
        .output()
        .split('\n')
        .filter((line) => line.startsWith('plantstore:'))
      assert.equal(ours.length, 1, run.output())
      assert.match(
        ours[0] as string,
        new RegExp(
          `^plantstore: cannot start: LITESTREAM_REPLICA_URL: the replica ${replica} cannot be written: permission denied \\(${mount} `,
        ),
      )
    } finally {
      await run.stop()
      folder.remove()
    }
  })

  test('a replica on a read-only file system stops the start with one line: the replica and read-only', async (t) => {
    const folder = tempFolder()
    const mount = join(folder.path, 'replica-volume')
    mkdirSync(mount)
    if (spawnSync('unshare', ['-m', 'mount', '-t', 'tmpfs', '-o', 'ro', 'none', mount]).status !== 0) {
      folder.remove()
      t.skip('needs unshare and mount (a mount namespace of its own)')
      return
    }
    const replica = join(mount, 'plantstore')
    const run = serveUnderLitestream(
      { DATABASE_URL: `sqlite:${join(folder.path, 'data', 'plantstore.db')}`, LITESTREAM_REPLICA_URL: pathToFileURL(replica).href },
      ['unshare', '-m', 'sh', '-c', `mount -t tmpfs -o ro none ${mount} && exec "$@"`, 'sh'],
    )
    try {
      const code = await run.exited(30_000)
      assert.notEqual(code, null, `it stopped instead of serving without replication: ${run.output()}`)
      const ours = run
        .output()
        .split('\n')
        .filter((line) => line.startsWith('plantstore:'))
      assert.equal(ours.length, 1, run.output())
      assert.match(
        ours[0] as string,
        new RegExp(`^plantstore: cannot start: LITESTREAM_REPLICA_URL: the replica ${replica} cannot be written: read-only \\(${mount} `),
      )
    } finally {
      await run.stop()
      folder.remove()
    }
  })
})
