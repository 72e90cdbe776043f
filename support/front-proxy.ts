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
  const errorFile = join(folder, 'plantstore-503.http')
  writeFileSync(errorFile, readFileSync(join(SHIPPED, 'plantstore-503.http')))
  const config = shipped
    .replace('bind :8080', `bind 127.0.0.1:${port}`)
    .replace('errorfile 503 /etc/haproxy/plantstore-503.http', `errorfile 503 ${errorFile}`)
    .replace('server plantstore-1 127.0.0.1:8081', `server plantstore-1 ${new URL(instanceUrl).host}`)
    .replace(/\n *server plantstore-2 .*/, '')
    .replace(/default-server maxconn [0-9]+/, maxconn === null ? 'default-server' : `default-server maxconn ${maxconn}`)
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
