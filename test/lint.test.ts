import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { test } from 'node:test'
import { REPO_ROOT } from '../support/service.js'

// npm test lints here, beside the other test files, rather than before them: the same check, in
// time the suite would otherwise spend waiting on services, timers and receivers. .ci/run's runs
// on Node.js 22 and 24 leave it out: it reads the sources with the lockfile's ESLint, TypeScript
// and Prettier, whose verdict is the same on every runtime, and the run on Node.js 20 has it.
const skip = process.env.PLANTSTORE_LINTED === 'yes' ? 'linted by the run on the first Node.js version' : false

test('ESLint and Prettier find nothing to fix (npm run lint)', { skip }, async () => {
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    execFile('npm', ['run', 'lint'], { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, output: `${stdout}${stderr}` })
    })
  })
  assert.equal(code, 0, output)
})
