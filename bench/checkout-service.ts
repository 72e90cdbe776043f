import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { tempFolder } from '../support/service.js'
import { LIST, type Scenario } from './scenarios.js'

/** The service of one built checkout, on a fresh SQLite store of its own. */
export interface CheckoutService {
  checkout: string
  url: string
  token: string
  child: ChildProcess
  stop(): Promise<void>
}

export interface CheckoutOptions {
  /** Run the service on CPU 0 only (`taskset`), when the machine has it. */
  pinned?: boolean
  /** Seeds the plants the list scenario reads. */
  scenario: Scenario
  /** Settings of the service beyond `npm start`'s defaults (the store is always a fresh SQLite file). */
  env?: Record<string, string>
}

/** True when `taskset` can pin a process here. */
export const canPin = () => spawnSync('taskset', ['-c', '0', 'true']).status === 0

/**
 * Starts `bin/plantstore serve` of `checkout` (built: `npm ci` there) with `npm start`'s defaults
 * on a new store, with a token made by that checkout's own CLI, as a user would.
 */
export async function startCheckout(
  checkout: string,
  { pinned = false, scenario, env: settings = {} }: CheckoutOptions,
): Promise<CheckoutService> {
  const folder = tempFolder()
  const env = { DATABASE_URL: `sqlite:${join(folder.path, 'bench.db')}` }
  const cli = join(checkout, 'bin', 'plantstore')
  const made = spawnSync(process.execPath, [cli, 'token', 'create', '--subject', 'bench'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  })
  if (made.status !== 0) {
    folder.remove()
    throw new Error(`token create failed in ${checkout}: ${made.stderr}`)
  }
  const command = [process.execPath, cli, 'serve']
  // taskset replaces itself with node, so the child's pid is the service's.
  const child = spawn(pinned ? 'taskset' : (command[0] as string), pinned ? ['-c', '0', ...command] : command.slice(1), {
    cwd: checkout,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...settings, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = once(child, 'exit')
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
    folder.remove()
  }
  try {
    const url = await new Promise<string>((resolveUrl, reject) => {
      let seen = ''
      const onData = (chunk: Buffer) => {
        seen += chunk.toString()
        const match = /Server listening at (http:\/\/127\.0\.0\.1:[0-9]+)/.exec(seen)
        if (match === null) return
        // From here the log is read and dropped, as a log collector would read it.
        child.stdout?.off('data', onData).resume()
        resolveUrl(match[1] as string)
      }
      child.stdout?.on('data', onData)
      child.once('exit', (code) => reject(new Error(`the service of ${checkout} exited with ${code}`)))
    })
    const token = made.stdout.trim()
    // The list scenario reads a first page of 20 of the caller's 100 plants.
    for (let id = 1; scenario === LIST && id <= 100; id++) {
      const answer = await fetch(`${url}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id, name: `plant ${id}` }),
      })
      if (!answer.ok) throw new Error(`seeding ${checkout} answered ${answer.status}`)
    }
    return { checkout, url, token, child, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
