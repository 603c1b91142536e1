// A published pack's facts are what the adapters read: a session opened through the session manager
// with a pack whose marker or selector is not on the page meets a site change at exactly that step
// (LayoutChangedError, never a generic failure), while the code default on the same account works.
// After send was pressed, a confirmation the page never shows is `uncertain` carrying the site
// change: the DM went out once, and nothing may send it again. No job runs here, so nothing is
// recorded or paused fleet-wide (the jobs' side is in alone/site-change.test.ts).
import { describe, it } from 'vitest'
import { LayoutChangedError } from '../src/platforms/layout.ts'
import type { PlatformSession } from '../src/platforms/types.ts'
import { loadAccount } from '../src/sessions/open.ts'
import { adminDb, createCustomer, createInstagramAccount, createXAccount } from './helpers/fixtures.ts'
import { editedPack } from './helpers/packs.ts'
import { type IgSandboxAccount, SandboxAdmin, sandboxUrl } from './helpers/sandbox.ts'
import { browserSuite } from './helpers/suite.ts'
import { BROWSER_SUITE, newXAccount } from './helpers/x-session.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
const ig = new SandboxAdmin(sandboxUrl('INSTAGRAM_BASE_URL'))
const suite = browserSuite(x, 7300)

async function xAccount() {
  const sandbox = await newXAccount(x, { behaviour: { replyShare: 0 } })
  const accountId = await createXAccount(await createCustomer(), sandbox)
  const account = await loadAccount(adminDb(), accountId)
  if (!account) throw new Error('no account')
  return { sandbox, account }
}

describe.concurrent('a published pack is what the adapters read', BROWSER_SUITE, () => {
  it('X: a pack naming a signed-in marker the page lacks fails the sign-in at that step', async ({
    expect,
  }) => {
    const { account } = await xAccount()
    const renamed = editedPack('twitter', 'test-signed-in-renamed', (f) => {
      f.app.signedIn = '[data-testid="SideNav_AccountSwitcher_Renamed"]'
    })
    const result = await suite.runner.sessions.use(account.id, 60_000, async (handle) => {
      const failed = await handle.open(account, renamed).catch((e: unknown) => e)
      // the code default, on the same account and page, signs in
      const opened = await handle.open(account)
      return { failed, opened: opened.status }
    })
    expect(result.status).toBe('done')
    const { failed, opened } = result.status === 'done' ? result.value : { failed: null, opened: null }
    expect(failed).toBeInstanceOf(LayoutChangedError)
    expect(failed).toMatchObject({
      platform: 'x',
      action: 'session',
      step: 'open session: signed-in account menu',
      path: '/home',
    })
    expect(opened).toBe('ok')
  })

  it('Instagram: a pack naming a login field the page lacks fails the sign-in at that step', async ({
    expect,
  }) => {
    const sandbox = await ig.createAccount<IgSandboxAccount>({})
    const accountId = await createInstagramAccount(await createCustomer(), sandbox)
    const account = await loadAccount(adminDb(), accountId)
    if (!account) throw new Error('no account')
    const renamed = editedPack('instagram', 'test-username-renamed', (f) => {
      f.selectors.username = 'form input[type="search"]'
    })
    const result = await suite.runner.sessions.use(account.id, 60_000, async (handle) => {
      const failed = await handle.open(account, renamed).catch((e: unknown) => e)
      const opened = await handle.open(account)
      return { failed, opened: opened.status }
    })
    const { failed, opened } = result.status === 'done' ? result.value : { failed: null, opened: null }
    expect(failed).toBeInstanceOf(LayoutChangedError)
    expect(failed).toMatchObject({ platform: 'instagram', action: 'session', step: 'log in: username field' })
    expect(opened).toBe('ok')
  })

  it('X: a composer the pack names but the page lacks is thrown before send; nothing goes out', async ({
    expect,
  }) => {
    const { sandbox, account } = await xAccount()
    const [lead] = await suite.people(1)
    const renamed = editedPack('twitter', 'test-composer-renamed', (f) => {
      f.chat.composer = 'form[data-testid="dm-composer-form"] textarea[data-testid="dm-composer-input"]'
    })
    const result = await suite.runner.sessions.use(account.id, 60_000, async (handle) => {
      const opened = await handle.open(account, renamed)
      if (opened.status !== 'ok') throw new Error(opened.message)
      return opened.session.sendDm({ userId: lead?.id }, 'Hello from a changed pack').catch((e: unknown) => e)
    })
    const failed = result.status === 'done' ? result.value : null
    expect(failed).toBeInstanceOf(LayoutChangedError)
    expect(failed).toMatchObject({ platform: 'x', action: 'send', step: 'open thread: composer' })
    expect(await x.deliveries(sandbox.username)).toHaveLength(0)
  })

  it('X: a sent message whose text the page no longer shows where the pack says is uncertain with the site change, sent once', async ({
    expect,
  }) => {
    const { sandbox, account } = await xAccount()
    const [lead] = await suite.people(1)
    const renamed = editedPack('twitter', 'test-status-renamed', (f) => {
      f.chat.messageText = '[data-testid="message-body-{id}"]'
    })
    const result = await suite.runner.sessions.use(account.id, 60_000, async (handle) => {
      const opened = await handle.open(account, renamed)
      if (opened.status !== 'ok') throw new Error(opened.message)
      const session: PlatformSession = opened.session
      return session.sendDm({ userId: lead?.id }, 'Hello, once')
    })
    const sent = result.status === 'done' ? result.value : null
    expect(sent).toMatchObject({ status: 'uncertain' })
    expect(sent?.status === 'uncertain' && sent.siteChange).toBeInstanceOf(LayoutChangedError)
    expect(sent?.status === 'uncertain' && sent.siteChange).toMatchObject({
      action: 'send',
      step: 'confirm: text of the sent message',
    })
    expect((await x.deliveries(sandbox.username)).map((d) => d.text)).toEqual(['Hello, once'])
  })
})
