import cluster, { type Worker } from 'node:cluster'
import type { Logger } from 'pino'

/**
 * A worker asks for the write turn, the primary grants it, the worker gives it back. An ask
 * that cannot be granted at once is answered "queued": the primary is alive, the worker waits on.
 */
const ASK = 'plantstore:write-turn-ask'
const QUEUED = 'plantstore:write-turn-queued'
const GRANT = 'plantstore:write-turn-grant'
const RELEASE = 'plantstore:write-turn-release'

interface TurnMessage {
  type: typeof ASK | typeof QUEUED | typeof GRANT | typeof RELEASE
  id: number
}

/**
 * Set by Plant Store's own primary on the workers it forks: only that primary grants turns. A
 * worker of another cluster primary (pm2's cluster mode) would wait for a grant that never comes.
 */
export const WRITE_TURNS_ENV = 'PLANTSTORE_WRITE_TURNS'

/**
 * How long a worker keeps the turn before the primary grants the next one anyway: well under
 * LOCK_WAIT_MS, so a worker stopped or stuck in its turn (SIGSTOP, a long pause) does not stall
 * the others. A batch takes milliseconds; SQLite's lock still guards a holder that writes late.
 */
export const TURN_LEASE_MS = 1_000

/**
 * How long a worker waits for an answer to its ask (the turn, or "queued") before it decides the
 * primary is stuck and writes without turns: short of LOCK_WAIT_MS, whose rest it keeps for
 * SQLite's lock. Both workers of a stuck primary stop waiting at about the same moment and meet
 * on the lock; with the whole 5 s spent on the turn, the one that found it taken answered 503.
 * A queued worker waits for its turn up to its whole budget (several workers ahead may each keep
 * the turn for their lease while the lock is held elsewhere), then tries the lock once.
 */
export const TURN_WAIT_MS = 2_000

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
 * waits. A worker that exits or loses its channel gives back its turn and its place in line; one
 * that keeps the turn past TURN_LEASE_MS loses it to the next in line.
 */
export function grantWriteTurns(): void {
  const line: { worker: Worker; id: number }[] = []
  let holder: { worker: Worker; id: number } | null = null
  let lease: NodeJS.Timeout | undefined
  const setHolder = (next: { worker: Worker; id: number } | null) => {
    clearTimeout(lease)
    holder = next
    if (next === null) return
    // A holder that keeps its turn past the lease loses it; its late release is then ignored.
    lease = setTimeout(() => {
      if (holder !== next) return
      setHolder(null)
      grantNext()
    }, TURN_LEASE_MS).unref()
  }
  const grantNext = () => {
    while (holder === null && line.length > 0) {
      const next = line.shift() as { worker: Worker; id: number }
      if (next.worker.isDead() || !next.worker.isConnected()) continue
      setHolder(next)
      try {
        next.worker.send({ type: GRANT, id: next.id } satisfies TurnMessage)
      } catch {
        setHolder(null) // its channel closed meanwhile: the next in line
      }
    }
  }
  const forget = (worker: Worker) => {
    for (let i = line.length - 1; i >= 0; i--) if (line[i]?.worker === worker) line.splice(i, 1)
    if (holder?.worker === worker) setHolder(null)
    grantNext()
  }
  cluster.on('message', (worker, message: unknown) => {
    if (isTurnMessage(message, ASK)) {
      line.push({ worker, id: message.id })
      grantNext()
      if (holder?.worker === worker && holder.id === message.id) return
      try {
        worker.send({ type: QUEUED, id: message.id } satisfies TurnMessage)
      } catch {
        // Its channel closed: `forget` takes it out of the line.
      }
    } else if (isTurnMessage(message, RELEASE) && holder?.worker === worker && holder.id === message.id) {
      setHolder(null)
      grantNext()
    }
  })
  cluster.on('disconnect', forget)
  cluster.on('exit', forget)
}

/**
 * In a worker: the write turn from the primary. It answers a function that gives the turn back.
 * Without an answer within `waitMs`, neither the turn nor "queued" (the primary stopped or
 * stuck), it answers without the turn,
 * and from then on every batch writes without asking, waiting on SQLite's lock as a write from
 * another process does, until the primary grants a turn again (a turn granted late is given
 * back at once). Each change is logged once, at warn. SQLite's lock stays the final word either
 * way: the turn only spares the workers from meeting it taken.
 */
export class WorkerWriteTurn {
  private nextId = 0
  private readonly waiting = new Map<number, () => void>()
  /** Asks the primary has answered "queued": it is alive, and they wait on for their turn. */
  private readonly queued = new Set<number>()
  /** Whether an ask went unanswered within `waitMs`: then batches write without turns until a grant comes. */
  private primaryStuck = false

  constructor(
    private readonly waitMs: number,
    private readonly budgetMs: number,
    private readonly logger: () => Logger | null,
  ) {
    process.on('message', (message: unknown) => {
      if (isTurnMessage(message, QUEUED)) {
        if (this.waiting.has(message.id)) this.queued.add(message.id)
        return
      }
      if (!isTurnMessage(message, GRANT)) return
      if (this.primaryStuck) {
        this.primaryStuck = false
        this.logger()?.warn('the primary grants write turns again: writing in turns')
      }
      const granted = this.waiting.get(message.id)
      if (granted !== undefined) granted()
      else this.release(message.id)
    })
    process.on('disconnect', () => {
      for (const granted of [...this.waiting.values()]) granted()
    })
  }

  take(): Promise<ReleaseTurn> {
    if (!process.connected || process.send === undefined || this.primaryStuck) return Promise.resolve(nothingToRelease)
    return new Promise((resolve) => {
      const id = this.nextId++
      const answer = (release: ReleaseTurn) => {
        clearTimeout(timer)
        this.waiting.delete(id)
        this.queued.delete(id)
        resolve(release)
      }
      const askedAt = Date.now()
      // In the check phase, after the poll phase: a worker that was itself stopped or busy past
      // its wait reads the answer already waiting on its channel first.
      const afterPoll = (check: () => void) => () =>
        setImmediate(() => {
          if (this.waiting.has(id)) check()
        })
      let timer = setTimeout(
        afterPoll(() => {
          if (this.queued.has(id)) {
            const left = Math.max(0, askedAt + this.budgetMs - Date.now())
            timer = setTimeout(
              afterPoll(() => answer(nothingToRelease)),
              left,
            )
            return
          }
          if (!this.primaryStuck) {
            this.primaryStuck = true
            this.logger()?.warn(
              { waitMs: this.waitMs },
              'the primary granted no write turn in time: writing without turns until it answers',
            )
          }
          answer(nothingToRelease)
        }),
        this.waitMs,
      )
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
let turnLogger: Logger | null = null

/** Where a worker logs that the primary stopped or resumed granting turns. */
export function logWriteTurnsTo(logger: Logger): void {
  turnLogger = logger
}

/**
 * The write turn of this process: a worker's that Plant Store's own primary forked to grant
 * turns (WORKERS > 1 on SQLite), else none (one process, the CLI, or another cluster primary's worker).
 */
export function writeTurnOfThisProcess(waitMs: number, budgetMs: number): WorkerWriteTurn | null {
  if (!cluster.isWorker || process.env[WRITE_TURNS_ENV] !== 'on') return null
  workerTurn ??= new WorkerWriteTurn(waitMs, budgetMs, () => turnLogger)
  return workerTurn
}
