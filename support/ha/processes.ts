import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, openSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/** PostgreSQL refuses to run as root: the cluster's processes run as this user. */
export const CLUSTER_USER = 'postgres'

/** Starts `command` as CLUSTER_USER (through setpriv when this process is root), its output appended to `logFile`. */
export function startAs(command: string, args: string[], logFile: string, cwd: string): ChildProcess {
  const out = openSync(logFile, 'a')
  const asUser = process.getuid?.() === 0
  const [file, argv] = asUser
    ? ['setpriv', ['--reuid', CLUSTER_USER, '--regid', CLUSTER_USER, '--init-groups', '--', command, ...args]]
    : [command, args]
  return spawn(file, argv, { cwd, stdio: ['ignore', out, out], env: { PATH: process.env.PATH ?? '', HOME: cwd, LANG: 'C.UTF-8' } })
}

/** The ids of the processes whose parent is `pid`. */
export function childrenOf(pid: number): number[] {
  const children: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // The parent id is the second field after the command, which is in parentheses.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (parent === pid) children.push(Number(entry))
    } catch {
      // A process that ended while it was read.
    }
  }
  return children
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

export function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name)
  } catch {
    // Already gone.
  }
}

/** The postmaster of a data folder (its first line of postmaster.pid), or null. */
export function postmasterOf(dataDir: string): number | null {
  const file = join(dataDir, 'postmaster.pid')
  if (!existsSync(file)) return null
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0])
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null
}

/**
 * Kills a postmaster and its children at once, as a machine that dies would. Each PostgreSQL
 * child calls setsid(), so no process group holds them: they are found by their parent's id.
 */
export function killPostmaster(dataDir: string): void {
  const postmaster = postmasterOf(dataDir)
  if (postmaster === null) return
  const children = childrenOf(postmaster)
  signal(postmaster, 'SIGKILL')
  for (const child of children) signal(child, 'SIGKILL')
}

export async function waitFor<T>(
  what: string,
  check: () => Promise<T | null | undefined | false>,
  timeoutMs: number,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check().catch(() => null)
    if (value !== null && value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}
