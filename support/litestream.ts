import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { REPO_ROOT } from './service.js'

/** The Litestream binary of the npm package for this platform, or null where there is none (only linux-x64 is published). */
export const LITESTREAM: string | null = (() => {
  try {
    return createRequire(import.meta.url).resolve(`@flydotio/litestream-${process.platform}-${process.arch}/litestream`)
  } catch {
    return null
  }
})()

const binary = (): string => {
  if (LITESTREAM === null) throw new Error(`no Litestream package for ${process.platform}-${process.arch}`)
  return LITESTREAM
}

export const LITESTREAM_CONFIG = join(REPO_ROOT, 'deploy', 'litestream.yml')

/** `litestream replicate` with deploy/litestream.yml for one database file and one replica URL. */
export interface Replication {
  process: ChildProcess
  output(): string
  /** SIGTERM: a last sync, then exit; answers the exit code. */
  stop(): Promise<number | null>
  /** SIGKILL: the machine is gone. */
  kill(): Promise<void>
}

export function litestreamEnv(databasePath: string, replicaUrl: string): Record<string, string> {
  return { PATH: process.env.PATH ?? '', PLANTSTORE_DB_PATH: databasePath, LITESTREAM_REPLICA_URL: replicaUrl }
}

export async function startReplication(databasePath: string, replicaUrl: string): Promise<Replication> {
  const child = spawn(binary(), ['replicate', '-config', LITESTREAM_CONFIG], {
    env: litestreamEnv(databasePath, replicaUrl),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
  // Replicating once it has read the database and made the replica's first generation.
  const since = Date.now()
  while (!/initialized db|replicating to/.test(output) && child.exitCode === null && Date.now() - since < 10_000) {
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  if (child.exitCode !== null) throw new Error(`litestream replicate exited: ${output}`)
  return {
    process: child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM')
      return (await exited)[0]
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
  }
}

/** `litestream restore` of the replica into `outputPath`, at `timestamp` when given; answers its exit code and output. */
export async function restoreReplica(
  replicaUrl: string,
  outputPath: string,
  timestamp?: Date,
): Promise<{ code: number | null; output: string }> {
  const args = ['restore', '-o', outputPath, ...(timestamp ? ['-timestamp', timestamp.toISOString()] : []), replicaUrl]
  const child = spawn(binary(), args, { env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const [code] = (await once(child, 'exit')) as [number | null]
  return { code, output }
}
