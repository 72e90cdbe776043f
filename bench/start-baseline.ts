import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { REPO_ROOT } from '../support/service.js'

/** Starts the bare `node:http` baseline (baseline.ts) on a free port of 127.0.0.1. */
export async function startBaseline(): Promise<{ url: string; process: ChildProcess }> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'dist', 'bench', 'baseline.js')], {
    env: { PATH: process.env.PATH ?? '', PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const [line] = (await once(child.stdout, 'data')) as [Buffer]
  const url = /http:\/\/\S+/.exec(line.toString())?.[0]
  if (!url) throw new Error(`baseline did not start: ${line.toString()}`)
  return { url, process: child }
}
