import { writeSync } from 'node:fs'
import { pino } from 'pino'

type SonicBoom = ReturnType<typeof pino.destination>

/** How long writing the last lines at exit waits, in all, for a full pipe's reader to make room. */
const EXIT_WRITE_PATIENCE_MS = 2_000
const EAGAIN_PAUSE_MS = 5

/**
 * pino's destination: the lines logged in one turn of the event loop are handed to sonic-boom
 * (pino's asynchronous writer) together, in chunks of whole lines of at most `maxWrite` bytes.
 * Handed one line at a time, sonic-boom measures the byte length of its whole pending chunk
 * again for every line: at full load that was 3 % of the process's samples (`bench:ab`, list).
 */
export class TurnBatchedDestination {
  private lines: string[] = []
  private readonly sonic: SonicBoom

  constructor(
    private readonly fd: number,
    private readonly maxWrite: number,
  ) {
    this.sonic = pino.destination({ dest: fd, sync: false, maxWrite })
    // Lines still gathered when the process exits (a deadline passed, a crash) are written synchronously.
    process.on('exit', () => {
      try {
        this.flushSync()
      } catch {
        // Nothing more can be done for the log while exiting.
      }
    })
  }

  write(line: string): boolean {
    if (this.lines.length === 0) setImmediate(this.handOver)
    this.lines.push(line)
    return true
  }

  flush(callback: (error?: Error) => void): void {
    this.handOver()
    this.sonic.flush(callback)
  }

  /**
   * Writes everything now: sonic-boom's buffer, then the lines still gathered, written here
   * rather than handed over, where they would start an asynchronous write that an exit cuts off.
   */
  flushSync(): void {
    const chunks = wholeLineChunks(this.lines, this.maxWrite)
    this.lines = []
    this.sonic.flushSync()
    for (const chunk of chunks) writeWholeSync(this.fd, chunk)
  }

  private readonly handOver = (): void => {
    const lines = this.lines
    if (lines.length === 0) return
    this.lines = []
    for (const chunk of wholeLineChunks(lines, this.maxWrite)) this.sonic.write(chunk)
  }
}

/**
 * The lines joined into as few chunks as fit in `maxWrite` bytes each (a longer line is a chunk
 * of its own): with `maxWrite` at most PIPE_BUF, workers sharing one pipe never split a line
 * that fits in it.
 */
export function wholeLineChunks(lines: readonly string[], maxWrite: number): string[] {
  const chunks: string[] = []
  let chunk = ''
  let bytes = 0
  for (const line of lines) {
    const length = Buffer.byteLength(line)
    if (bytes > 0 && bytes + length > maxWrite) {
      chunks.push(chunk)
      chunk = ''
      bytes = 0
    }
    chunk += line
    bytes += length
  }
  if (bytes > 0) chunks.push(chunk)
  return chunks
}

/** Writes all of `text` to `fd`, waiting for a full non-blocking pipe to drain, within EXIT_WRITE_PATIENCE_MS. */
function writeWholeSync(fd: number, text: string): void {
  let rest = Buffer.from(text)
  let waited = 0
  while (rest.length > 0) {
    try {
      rest = rest.subarray(writeSync(fd, rest))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' || waited >= EXIT_WRITE_PATIENCE_MS) throw error
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, EAGAIN_PAUSE_MS)
      waited += EAGAIN_PAUSE_MS
    }
  }
}
