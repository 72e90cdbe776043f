/**
 * A test reporter that prints, when the run ends, each test file's time (the sum of its top-level
 * tests' durations), slowest first: where the suite's minutes go.
 */
interface TestEvent {
  type: string
  data: { nesting?: number; file?: string; details?: { duration_ms?: number } }
}

export default async function* durations(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const started = Date.now()
  const perFile = new Map<string, { ms: number; tests: number; failed: number }>()
  for await (const event of source) {
    if ((event.type !== 'test:pass' && event.type !== 'test:fail') || event.data.nesting !== 0 || !event.data.file) continue
    const file = event.data.file.replace(/^.*\/dist\//, '')
    const entry = perFile.get(file) ?? { ms: 0, tests: 0, failed: 0 }
    entry.ms += event.data.details?.duration_ms ?? 0
    entry.tests += 1
    if (event.type === 'test:fail') entry.failed += 1
    perFile.set(file, entry)
  }
  const rows = [...perFile].sort((a, b) => b[1].ms - a[1].ms)
  const total = rows.reduce((sum, [, entry]) => sum + entry.ms, 0)
  const seconds = (ms: number) => (ms / 1000).toFixed(1)
  yield `\ntest files by time: the run ${seconds(Date.now() - started)} s, the files' tests ${seconds(total)} s in all\n`
  for (const [file, entry] of rows) {
    const failed = entry.failed > 0 ? `, ${entry.failed} failed` : ''
    yield `${seconds(entry.ms).padStart(8)} s  ${file} (${entry.tests} top-level tests${failed})\n`
  }
}
