import type { FastifyBaseLogger } from 'fastify'
import type { Bindings, ChildLoggerOptions } from 'pino'

type AnyLogFn = (this: FastifyBaseLogger, ...args: unknown[]) => void
type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'

/**
 * A request's logger, made into a pino child only when something logs through it. Most
 * requests log only their completed line, which is written through the parent with the
 * request id as a field (the same line); making a child for each request cost 1 to 2 µs.
 */
export class LazyRequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options)
    return this.made
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level
  }

  set level(level: string) {
    this.logger.level = level
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options)
  }

  fatal(...args: unknown[]): void {
    this.forward('fatal', args)
  }

  error(...args: unknown[]): void {
    this.forward('error', args)
  }

  warn(...args: unknown[]): void {
    this.forward('warn', args)
  }

  info(...args: unknown[]): void {
    this.forward('info', args)
  }

  debug(...args: unknown[]): void {
    this.forward('debug', args)
  }

  trace(...args: unknown[]): void {
    this.forward('trace', args)
  }

  silent(): void {}

  private forward(level: LevelName, args: unknown[]): void {
    const logger = this.logger
    ;(logger[level] as AnyLogFn).apply(logger, args)
  }
}
