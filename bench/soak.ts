import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { type TestDatabase, seedPlants } from '../support/databases.js'
import { makeToken, startService, tempFolder } from '../support/service.js'
import { residentMemory } from './load.js'
import { LIST, MIXED } from './scenarios.js'

/**
 * A mixed load (create, delete, list) for --minutes, printing the service's memory as it
 * goes: resident memory must settle, not climb.
 */
const { values } = parseArgs({ options: { minutes: { type: 'string', default: '5' } } })
const minutes = Number(values.minutes)
if (!(minutes > 0)) throw new Error('--minutes takes a positive number')

/** The benchmark's create and delete of one plant, with a list between them. */
function soakRequests(): autocannon.Request[] {
  const [create, remove] = MIXED.requests() as [autocannon.Request, autocannon.Request]
  return [create, ...LIST.requests(), remove]
}

const folder = tempFolder()
const db: TestDatabase = { kind: 'sqlite', url: `sqlite:${folder.path}/soak.db`, drop: async () => folder.remove() }
const service = await startService({ DATABASE_URL: db.url }, { keepLogs: false })
const pid = service.process.pid as number
try {
  const token = await makeToken(db.url, 'soak')
  await seedPlants(db, { owner: 'soak', firstId: 1n, count: 1_000, name: (i) => `plant ${i}` })
  const slice = Math.min(30, minutes * 60)
  const slices = Math.max(1, Math.round((minutes * 60) / slice))
  const samples: number[] = []
  const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1)
  console.log(`soak: ${slices} × ${slice} s of mixed load, 50 connections; idle RSS ${mib(residentMemory(pid))} MiB`)
  for (let i = 0; i < slices; i++) {
    const result = await autocannon({
      url: service.url,
      connections: 50,
      duration: slice,
      headers: { authorization: `Bearer ${token}` },
      requests: soakRequests(),
    })
    const rss = residentMemory(pid)
    samples.push(rss)
    console.log(
      `${String((i + 1) * slice).padStart(5)} s: ${result.requests.average.toFixed(0)} req/s, ` +
        `${result.non2xx + result.errors} failures, RSS ${mib(rss)} MiB`,
    )
  }
  const firstHalfPeak = Math.max(...samples.slice(0, Math.ceil(samples.length / 2)))
  const last = samples.at(-1) as number
  const settled = last <= firstHalfPeak * 1.15
  console.log(`soak: RSS at start of load ${mib(samples[0] as number)} MiB, at end ${mib(last)} MiB: ${settled ? 'settled' : 'CLIMBING'}`)
  process.exitCode = settled ? 0 : 1
} finally {
  await service.stop()
  await db.drop()
}
