// A warm session whose browser died (a crash, or the kernel's OOM killer) must not be handed to the
// account's next job: its context and cookies are gone, so the next job signs in again and works.
import { afterAll, describe, expect, it } from 'vitest'
import { loadAccount } from '../src/sessions/open.ts'
import { type TestRunner, testRunner } from './helpers/context.ts'
import { closeAdminDb, createCustomer, createXAccount } from './helpers/fixtures.ts'
import { SandboxAdmin, sandboxUrl } from './helpers/sandbox.ts'
import { BROWSER_SUITE, newXAccount } from './helpers/x-session.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('a warm session after its browser died', BROWSER_SUITE, () => {
  let runner: TestRunner | undefined
  afterAll(async () => {
    await runner?.close()
    await closeAdminDb()
  })

  it('is opened again on the next job, not reused dead', async () => {
    runner = await testRunner()
    const accountId = await createXAccount(await createCustomer(), await newXAccount(x))
    const account = await loadAccount(runner.db, accountId)
    if (!account) throw new Error('no account')
    const open = (runner: TestRunner) =>
      runner.sessions.use(accountId, 60_000, async (handle) => {
        const opened = await handle.open(account)
        if (opened.status !== 'ok') throw new Error(`sign-in failed: ${opened.status}`)
        await opened.session.readInbox() // the session really works
        return opened.session
      })
    const first = await open(runner)
    if (first.status !== 'done') throw new Error('account busy')

    const [pid] = (await runner.pool.stats()).pids
    process.kill(pid as number, 'SIGKILL')
    const deadline = Date.now() + 30_000
    while ((await runner.pool.stats()).browsers > 0 && Date.now() < deadline) await sleep(100)

    const second = await open(runner)
    expect(second.status).toBe('done')
    if (second.status === 'done') expect(second.value).not.toBe(first.value)
  }, 180_000)
})
