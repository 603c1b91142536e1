// Proxied accounts share browsers: each context goes through its own proxy with its own login in one
// Chromium, a browser closes after its last context, and a browser that dies takes only its own
// contexts with it. Real Chromium against two local proxies that want their own logins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BrowserGoneError } from '../src/browser/account-context.ts'
import { navigate } from '../src/browser/navigate.ts'
import { BrowserPool } from '../src/browser/pool.ts'
import { RecordingProxy, startSite } from './helpers/recording-proxy.ts'
import { BROWSER_SUITE } from './helpers/x-session.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function until(what: string, done: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`)
    await sleep(100)
  }
}

describe('proxied accounts in shared browsers', BROWSER_SUITE, () => {
  let site: Awaited<ReturnType<typeof startSite>>
  let a: RecordingProxy
  let b: RecordingProxy

  beforeAll(async () => {
    site = await startSite()
    // proxy A serves two accounts (two logins), proxy B a third
    a = await RecordingProxy.start('alice:a-secret', 'carol:c-secret')
    b = await RecordingProxy.start('bob:b-secret')
  })
  afterAll(async () => {
    await Promise.all([a.close(), b.close(), site.close()])
  })

  it('routes each context of one browser through its own proxy with its own login, popups too', async () => {
    const pool = new BrowserPool()
    try {
      const alice = await pool.newContext(a.urlFor('alice:a-secret'))
      const bob = await pool.newContext(b.urlFor('bob:b-secret'))
      const carol = await pool.newContext(a.urlFor('carol:c-secret'))
      const direct = await pool.newContext()
      for (const [name, context] of Object.entries({ alice, bob, carol, direct })) {
        const page = await context.newPage()
        await navigate(page, `${site.url}/${name}/home`, 30_000)
        expect(await page.title()).toBe(`/${name}/home`)
      }
      // a page the site opens (window.open) is not one we authenticate: the context's own proxy
      // login cache, filled by the page that loaded the site, answers for it (never another's)
      const opener = await bob.newPage()
      await navigate(opener, `${site.url}/bob/opener`, 30_000)
      await opener.evaluate((url) => void window.open(url), `${site.url}/bob/popup`)
      await until('the popup loaded through bob’s proxy', () =>
        b.seen.some((r) => r.url.endsWith('/bob/popup')),
      )

      const logins = (proxy: RecordingProxy, account: string) =>
        new Set(proxy.seen.filter((r) => r.url.includes(`/${account}/`)).map((r) => r.login))
      expect(logins(a, 'alice')).toEqual(new Set(['alice:a-secret']))
      expect(logins(a, 'carol')).toEqual(new Set(['carol:c-secret']))
      expect(logins(b, 'bob')).toEqual(new Set(['bob:b-secret']))
      expect(logins(a, 'bob').size + logins(b, 'alice').size + logins(b, 'carol').size).toBe(0)
      expect(logins(a, 'direct').size + logins(b, 'direct').size).toBe(0)

      const browser = alice.context.browser()
      expect([bob, carol, direct].every((c) => c.context.browser() === browser)).toBe(true)
      expect(await pool.stats()).toMatchObject({ browsers: 1, contexts: 4 })
      expect((await pool.stats()).pids).toHaveLength(1)
    } finally {
      await pool.close()
    }
  }, 120_000)

  it('never hands the proxy login to a site: a Basic-auth page gets none, https goes through a tunnel with it', async () => {
    const pool = new BrowserPool()
    try {
      const alice = await pool.newContext(a.urlFor('alice:a-secret'))
      const page = await alice.newPage()
      // signed in to the proxy already (its 407 answered), as any page after the first is
      await navigate(page, `${site.url}/alice/home`, 30_000)
      const answer = await page.goto(`${site.url}/alice/basic`, { timeout: 30_000 }).catch(() => null)
      expect(answer?.status() ?? 401).toBe(401)
      expect(a.seen.some((r) => r.url.endsWith('/alice/basic') && r.login === 'alice:a-secret')).toBe(true)
      expect(site.logins).toEqual([]) // the site asked; it was never told the proxy's login

      // an https site: the browser opens a CONNECT tunnel, which carries the account's login (the
      // handshake then fails: the site speaks plain http; only the tunnel is checked here)
      const port = new URL(site.url).port
      await page.goto(`https://127.0.0.1:${port}/alice/tls`, { timeout: 30_000 }).catch(() => null)
      expect(a.seen).toContainEqual({ url: `CONNECT 127.0.0.1:${port}`, login: 'alice:a-secret' })
    } finally {
      await pool.close()
    }
  }, 120_000)

  it('closes a browser after its last context, and keeps it for a context that comes within the grace', async () => {
    const keeping = new BrowserPool({ idleBrowserMs: 600_000 })
    const closing = new BrowserPool({ idleBrowserMs: 0 })
    try {
      const first = await keeping.newContext(a.urlFor('alice:a-secret'))
      const kept = first.context.browser()
      await first.close()
      const next = await keeping.newContext(b.urlFor('bob:b-secret'))
      expect(next.context.browser()).toBe(kept)

      const only = await closing.newContext(a.urlFor('alice:a-secret'))
      const browser = only.context.browser()
      const child = browser.process()
      await only.close()
      await until('the browser exited', () => child?.exitCode !== null || child?.signalCode !== null)
      expect(browser.connected).toBe(false)
      expect(await closing.stats()).toMatchObject({ browsers: 0, contexts: 0 })
      // and the next account gets a new browser
      const again = await closing.newContext(b.urlFor('bob:b-secret'))
      const page = await again.newPage()
      await navigate(page, `${site.url}/bob/again`, 30_000)
      expect(again.context.browser()).not.toBe(browser)
    } finally {
      await Promise.all([keeping.close(), closing.close()])
    }
  }, 120_000)

  it('loses only the contexts of a browser that died; the others work and new ones open', async () => {
    const pool = new BrowserPool({ contextsPerBrowser: 2 })
    try {
      const alice = await pool.newContext(a.urlFor('alice:a-secret'))
      const carol = await pool.newContext(a.urlFor('carol:c-secret'))
      const bob = await pool.newContext(b.urlFor('bob:b-secret'))
      const doomed = alice.context.browser()
      expect(carol.context.browser()).toBe(doomed)
      expect(bob.context.browser()).not.toBe(doomed)
      expect((await pool.stats()).browsers).toBe(2)

      doomed.process()?.kill('SIGKILL')
      await until('both contexts of the killed browser are lost', () => alice.lost && carol.lost)
      expect(bob.lost).toBe(false)
      await expect(alice.newPage()).rejects.toBeInstanceOf(BrowserGoneError)
      await alice.close() // a lost context closes without complaint

      const page = await bob.newPage()
      await navigate(page, `${site.url}/bob/after-crash`, 30_000)
      expect(await page.title()).toBe('/bob/after-crash')
      const reopened = await pool.newContext(a.urlFor('alice:a-secret'))
      const alicePage = await reopened.newPage()
      await navigate(alicePage, `${site.url}/alice/after-crash`, 30_000)
      expect(a.seen.some((r) => r.url.endsWith('/alice/after-crash') && r.login === 'alice:a-secret')).toBe(
        true,
      )
      expect((await pool.stats()).pids).not.toContain(doomed.process()?.pid)
    } finally {
      await pool.close()
    }
  }, 120_000)
})
