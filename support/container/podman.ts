import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { REPO_ROOT } from '../service.js'

const CONTAINERS_CONF = join(REPO_ROOT, 'test', 'container', 'containers.conf')

export interface CommandResult {
  code: number | null
  stdout: string
  stderr: string
}

export interface RunOptions {
  timeoutMs?: number
  /** Variables on top of this process's environment. */
  env?: Record<string, string>
}

/** Runs podman, buildah or another tool with the test's containers.conf, never through a shell. */
export function run(command: string, args: string[], { timeoutMs = 120_000, env = {} }: RunOptions = {}): Promise<CommandResult> {
  const fullEnv = { ...process.env, CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? CONTAINERS_CONF, ...env }
  return new Promise((resolve) => {
    execFile(command, args, { env: fullEnv, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0
      resolve({ code, stdout, stderr })
    })
  })
}

/** Like `run`, but a non-zero exit is an error that quotes the end of standard error. */
export async function must(command: string, args: string[], options?: RunOptions): Promise<string> {
  const result = await run(command, args, options)
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.code}: ${result.stderr.slice(-2000)}`)
  }
  return result.stdout
}

/** Why containers cannot be built and run here, or null when podman and buildah both answer. */
export async function containersUnavailable(): Promise<string | null> {
  for (const tool of ['podman', 'buildah']) {
    const result = await run(tool, ['--version'], { timeoutMs: 30_000 })
    if (result.code !== 0) return `${tool} is not installed (apt-get install podman buildah runc)`
  }
  const info = await run('podman', ['info', '--format', '{{.Host.OCIRuntime.Name}}'], { timeoutMs: 60_000 })
  return info.code === 0 ? null : `podman cannot run here: ${info.stderr.trim().split('\n').at(-1)}`
}
