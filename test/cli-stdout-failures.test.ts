import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { REPO_ROOT, runCli, tempFolder } from '../support/service.js'

interface Ended {
  code: number | null
  stderr: string
}

/** The CLI with its standard output on /dev/full (every write fails ENOSPC) or on a pipe already closed (EPIPE). */
function runWithBrokenStdout(args: string[], env: Record<string, string>, how: 'full' | 'closed'): Promise<Ended> {
  const full = how === 'full' ? openSync('/dev/full', 'w') : null
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'plantstore'), ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', full ?? 'pipe', 'pipe'],
    timeout: 30_000,
  })
  if (full !== null) closeSync(full)
  child.stdout?.destroy()
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })))
}

describe('the CLI when its standard output cannot be written', () => {
  const folder = tempFolder()
  const env = { DATABASE_URL: `sqlite:${join(folder.path, 'plants.db')}` }
  before(async () => assert.equal((await runCli(['migrate'], env)).code, 0))
  after(() => folder.remove())

  test('token create to a full disk says so in one line, exits 1, and leaves no working token', async () => {
    const ended = await runWithBrokenStdout(['token', 'create', '--subject', 'fulltest'], env, 'full')
    assert.equal(ended.code, 1, ended.stderr)
    assert.equal(ended.stderr.trim().split('\n').length, 1, ended.stderr)
    assert.match(ended.stderr, /^plantstore: .*ENOSPC.*revoked/)
    const listed = await runCli(['token', 'list', '--json'], env)
    const tokens = JSON.parse(listed.stdout) as { subject: string; revokedAt: string | null }[]
    const made = tokens.filter((token) => token.subject === 'fulltest')
    assert.equal(made.length, 1)
    assert.notEqual(made[0]?.revokedAt, null, 'the token nobody saw is revoked')
  })

  for (const args of [['--version'], ['token', 'list'], ['help']]) {
    test(`plantstore ${args.join(' ')} into a closed pipe ends quietly, without a stack trace`, async () => {
      const ended = await runWithBrokenStdout(args, env, 'closed')
      assert.equal(ended.stderr, '')
      assert.notEqual(ended.code, null)
    })
  }

  test('plantstore --version to a full disk says so in one line and exits 1', async () => {
    const ended = await runWithBrokenStdout(['--version'], env, 'full')
    assert.equal(ended.code, 1, ended.stderr)
    assert.match(ended.stderr, /^plantstore: cannot write to standard output: .*ENOSPC.*\n$/)
  })
})
