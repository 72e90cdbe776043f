import cluster, { type Worker } from 'node:cluster'

/** A worker asks for the write turn, the primary grants it, the worker gives it back. */
const ASK = 'plantstore:write-turn-ask'
const GRANT = 'plantstore:write-turn-grant'
const RELEASE = 'plantstore:write-turn-release'

interface TurnMessage {
  type: typeof ASK | typeof GRANT | typeof RELEASE
  id: number
}

const isTurnMessage = (message: unknown, type: TurnMessage['type']): message is TurnMessage =>
  (message as { type?: unknown } | null)?.type === type && typeof (message as { id?: unknown }).id === 'number'

/** Gives the turn back; calling it twice gives it back once. */
export type ReleaseTurn = () => void

const nothingToRelease: ReleaseTurn = () => {}

/**
 * In the primary of WORKERS > 1 on SQLite: the write turn, one worker's at a time, in the order
 * asked. A worker commits its group commit's batch in its turn, so the workers' transactions
 * follow one another without meeting SQLite's lock taken (each would retry every millisecond,
 * and the lock would sit idle between their tries), and a worker's batch keeps filling while it
 * waits. A worker that exits or loses its channel gives back its turn and its place in line.
 */
export function grantWriteTurns(): void {
  const line: { worker: Worker; id: number }[] = []
  let holder: { worker: Worker; id: number } | null = null
  const grantNext = () => {
    while (holder === null && line.length > 0) {
      const next = line.shift() as { worker: Worker; id: number }
      if (next.worker.isDead() || !next.worker.isConnected()) continue
      holder = next
      try {
        next.worker.send({ type: GRANT, id: next.id } satisfies TurnMessage)
      } catch {
        holder = null // its channel closed meanwhile: the next in line
      }
    }
  }
  const forget = (worker: Worker) => {
    for (let i = line.length - 1; i >= 0; i--) if (line[i]?.worker === worker) line.splice(i, 1)
    if (holder?.worker === worker) holder = null
    grantNext()
  }
  cluster.on('message', (worker, message: unknown) => {
    if (isTurnMessage(message, ASK)) {
      line.push({ worker, id: message.id })
      grantNext()
    } else if (isTurnMessage(message, RELEASE) && holder?.worker === worker && holder.id === message.id) {
      holder = null
      grantNext()
    }
  })
  cluster.on('disconnect', forget)
  cluster.on('exit', forget)
}

/**
 * In a worker: the write turn from the primary. It answers a function that gives the turn back.
 * Without an answer within `waitMs` (the primary busy or gone) it answers without the turn, and
 * the write waits on SQLite's lock as a write from another process does; a turn granted after
 * that is given back at once. SQLite's lock stays the final word either way: the turn only
 * spares the workers from meeting it taken.
 */
export class WorkerWriteTurn {
  private nextId = 0
  private readonly waiting = new Map<number, () => void>()

  constructor(private readonly waitMs: number) {
    process.on('message', (message: unknown) => {
      if (!isTurnMessage(message, GRANT)) return
      const granted = this.waiting.get(message.id)
      if (granted !== undefined) granted()
      else this.release(message.id)
    })
    process.on('disconnect', () => {
      for (const granted of [...this.waiting.values()]) granted()
    })
  }

  take(): Promise<ReleaseTurn> {
    if (!process.connected || process.send === undefined) return Promise.resolve(nothingToRelease)
    return new Promise((resolve) => {
      const id = this.nextId++
      const answer = (release: ReleaseTurn) => {
        clearTimeout(timer)
        this.waiting.delete(id)
        resolve(release)
      }
      const timer = setTimeout(() => answer(nothingToRelease), this.waitMs)
      this.waiting.set(id, () => {
        let released = false
        answer(
          process.connected
            ? () => {
                if (released) return
                released = true
                this.release(id)
              }
            : nothingToRelease,
        )
      })
      process.send?.({ type: ASK, id } satisfies TurnMessage, undefined, undefined, (error: Error | null) => {
        if (error !== null) answer(nothingToRelease)
      })
    })
  }

  private release(id: number): void {
    if (!process.connected) return
    process.send?.({ type: RELEASE, id } satisfies TurnMessage, undefined, undefined, () => {})
  }
}

let workerTurn: WorkerWriteTurn | null = null

/** The write turn of this process: a worker's of WORKERS > 1, else none (one process, or the CLI). */
export function writeTurnOfThisProcess(waitMs: number): WorkerWriteTurn | null {
  if (!cluster.isWorker) return null
  workerTurn ??= new WorkerWriteTurn(waitMs)
  return workerTurn
}
