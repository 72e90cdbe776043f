import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { freePort } from './ports.js'
import { REPO_ROOT } from './service.js'

const SHIPPED = join(REPO_ROOT, 'deploy', 'front')

export interface FrontProxy {
  /** Where clients reach the instance through the proxy. */
  url: string
  /** The cap on the instance's connections, or null for none. */
  maxconn: number | null
  /** What HAProxy wrote: an instance marked down or up by its check, an alert. */
  log(): string
  stop(): Promise<void>
}

export const haproxyInstalled = (): boolean => spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0

/**
 * HAProxy with the shipped `deploy/front/haproxy.cfg`, its two example instances replaced by the
 * one at `instanceUrl`. `maxconn` replaces the shipped cap on its connections; `null` drops it,
 * to measure what the proxy costs alone.
 */
export async function startFrontProxy(
  instanceUrl: string,
  folder: string,
  { maxconn: cap }: { maxconn?: number | null } = {},
): Promise<FrontProxy> {
  const shipped = readFileSync(join(SHIPPED, 'haproxy.cfg'), 'utf8')
  const maxconn = cap === undefined ? Number(/default-server maxconn ([0-9]+)/.exec(shipped)?.[1]) : cap
  const port = await freePort()
  const edits: [string | RegExp, string][] = [
    // Run as the user who runs the tests, in no chroot, with the log on standard error.
    [/\n {4}(user|group|chroot) .*/g, ''],
    ['log /dev/log local0', 'log stderr format raw local0 notice'],
    ['bind :8080', `bind 127.0.0.1:${port}`],
    ['server plantstore-1 127.0.0.1:8081', `server plantstore-1 ${new URL(instanceUrl).host}`],
    [/\n *server plantstore-2 .*/, ''],
    [/default-server maxconn [0-9]+/, maxconn === null ? 'default-server' : `default-server maxconn ${maxconn}`],
  ]
  const config = edits.reduce((text, [from, to]) => {
    const found = typeof from === 'string' ? text.includes(from) : text.search(from) !== -1
    if (!found) throw new Error(`deploy/front/haproxy.cfg has no ${String(from)} to replace: change support/front-proxy.ts with it`)
    return text.replace(from, to)
  }, shipped)
  const path = join(folder, `haproxy-${port}.cfg`)
  writeFileSync(path, config)
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', path], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const url = `http://127.0.0.1:${port}`
  await waitUntilAnswering(`${url}/healthz`, child, () => stderr)
  return {
    url,
    maxconn,
    log: () => stderr,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill('SIGTERM')
      await once(child, 'exit')
    },
  }
}

async function waitUntilAnswering(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}: ${stderr()}`)
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    )
    if (ok) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  child.kill('SIGKILL')
  throw new Error(`haproxy did not answer on ${url} within 10 s: ${stderr()}`)
}
