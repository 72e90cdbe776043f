import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** A folder of its own for one test file; removed by `remove()`. */
export function tempFolder(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), 'plantstore-test-'))
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) }
}

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * Runs `bin/plantstore` as a user would, with the given environment on top of a clean one;
 * `root` is the checkout whose CLI runs (another release's, for the upgrade test).
 */
export function runCli(args: string[], env: Record<string, string>, cwd = REPO_ROOT, root = REPO_ROOT): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(root, 'bin', 'plantstore'), ...args],
      { cwd, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0
        resolve({ code, stdout, stderr })
      },
    )
  })
}

/** A token made through the CLI, exactly as a user makes one. */
export async function makeToken(databaseUrl: string, subject: string, ...options: string[]): Promise<string> {
  const result = await runCli(['token', 'create', '--subject', subject, ...options], { DATABASE_URL: databaseUrl })
  if (result.code !== 0) throw new Error(`token create failed: ${result.stderr}`)
  return result.stdout.trim()
}

export interface Service {
  url: string
  process: ChildProcess
  /** Everything written to standard error so far (the first-start token goes there). */
  stderr(): string
  /** Every log line written so far. */
  stdout(): string
  /**
   * Resolves with the log once `seen` holds for it, within `timeoutMs`: log lines are written in
   * batches, up to 250 ms after the request.
   */
  waitForLog(seen: (stdout: string) => boolean, timeoutMs?: number): Promise<string>
  /** Sends the signal and resolves with the exit code once the process has ended. */
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

export interface StartOptions {
  /** Keep the log lines for `stdout()` (tests read them); a benchmark discards them. */
  keepLogs?: boolean
  /** The checkout whose `bin/plantstore` serves: this one unless another release's is named. */
  root?: string
}

/** Starts `bin/plantstore serve` on a free port of 127.0.0.1 and resolves once it listens. */
export async function startService(
  env: Record<string, string>,
  { keepLogs = true, root = REPO_ROOT }: StartOptions = {},
): Promise<Service> {
  const child = spawn(process.execPath, [join(root, 'bin', 'plantstore'), 'serve'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  let listening = false
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exited = once(child, 'exit').then(([code]) => code as number | null)
  const url = await new Promise<string>((resolve, reject) => {
    // A bound, not an expectation: on a busy machine loading the service alone has taken 20 s.
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`service did not start within 60 s: ${stderr}`))
    }, 60_000)
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (listening && !keepLogs) return
      stdout += chunk
      if (listening) return
      const match = /Server listening at (http:\/\/127\.0\.0\.1:[0-9]+)/.exec(stdout)
      if (match) {
        listening = true
        clearTimeout(timer)
        resolve(match[1] as string)
      }
    })
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`service exited with ${code} before listening: ${stderr}`))
    })
  })
  return {
    url,
    process: child,
    stderr: () => stderr,
    stdout: () => stdout,
    async waitForLog(seen, timeoutMs = 5_000) {
      const since = Date.now()
      while (!seen(stdout) && Date.now() - since < timeoutMs) await new Promise((resolve) => setTimeout(resolve, 25))
      return stdout
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return exited
    },
  }
}
