// What an account costs the machine in Chromium processes: its page's renderer and nothing more.
// 50 warm accounts on one runner are 50 contexts, so a process per context is ~50 processes.
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { navigate } from '../src/browser/navigate.ts'
import { SessionPages } from '../src/browser/operations.ts'
import { BrowserPool } from '../src/browser/pool.ts'
import { OperationTimeoutError } from '../src/platforms/types.ts'
import { processTree } from '../src/process-stats.ts'
import { BROWSER_SUITE } from './helpers/x-session.ts'

/** Chromium renames its processes: the command line is one string with the flags in it. */
const renderers = (browserPid: number) =>
  processTree(browserPid).filter((p) => {
    try {
      return readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').includes('--type=renderer')
    } catch {
      return false
    }
  }).length

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('the browser pool', BROWSER_SUITE, () => {
  let site: Server
  let url = ''
  const pool = new BrowserPool()

  beforeAll(async () => {
    site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'session=warm; Path=/' })
      res.end('<!doctype html><title>site</title><p>signed in</p>')
    })
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    await pool.close()
    site.close()
  })

  it('gives up on a page the browser never opens within the operation, and opens the next one', async () => {
    const context = await pool.newContext()
    const opens = { hung: 0 }
    // the browser does not answer the first page it is asked for (a starved or wedged renderer)
    const opened = context.newPage.bind(context)
    context.newPage = () => {
      if (opens.hung++ === 0) return new Promise<never>(() => {})
      return opened()
    }
    const pages = new SessionPages(context, 'account', 15_000)
    const hung = await pages.run('open thread', 1_000, () => Promise.resolve('done')).catch((e: Error) => e)
    expect(hung).toBeInstanceOf(OperationTimeoutError)
    // the session is not left busy, and it does not wait on the page that never came
    const title = await pages.run('open thread', 20_000, async (page) => {
      await navigate(page, `${url}/home`, 15_000)
      return page.title()
    })
    expect(title).toBe('site')
    expect(opens.hung).toBe(2)
    await pages.close()
  }, 60_000)

  it('costs one renderer process per account context, its page on the site or parked', async () => {
    // the browser itself, before any account (kept up by one context: a browser closes with its last)
    const anchor = await pool.newContext()
    const { pids } = await pool.stats()
    const browserPid = pids[0] as number
    const baseline = renderers(browserPid)
    const accounts = 4
    for (let i = 0; i < accounts; i++) {
      const page = await (await pool.newContext()).newPage()
      await navigate(page, `${url}/home`, 15_000)
      await navigate(page, 'about:blank', 5_000) // parked between jobs
      await navigate(page, `${url}/messages`, 15_000)
    }
    // Chromium may keep one spare renderer ready; a second process per account (Chromium 156's
    // omnibox popup WebUI, one per window) would be 4 more. A renderer left by a navigation exits
    // a moment after it (later on a loaded machine), so wait for the count to settle.
    const deadline = Date.now() + 20_000
    while (renderers(browserPid) - baseline > accounts + 1 && Date.now() < deadline) await sleep(200)
    expect(renderers(browserPid) - baseline).toBeLessThanOrEqual(accounts + 1)
    await anchor.close()
  }, 120_000)

  it('keeps no renderer for a parked session, which stays signed in for its next job', async () => {
    const anchor = await pool.newContext()
    const browserPid = (await pool.stats()).pids[0] as number
    const baseline = renderers(browserPid)
    const pages: SessionPages[] = []
    for (let i = 0; i < 3; i++) pages.push(new SessionPages(await pool.newContext(), `account ${i}`, 15_000))
    for (const session of pages)
      await session.run('sign in', 20_000, async (page) => {
        await navigate(page, `${url}/home`, 15_000)
        await page.evaluate(() => localStorage.setItem('xchat:identity', 'keys'))
      })
    expect(renderers(browserPid) - baseline).toBeGreaterThanOrEqual(pages.length)
    for (const session of pages) await session.park()
    // the renderers exit once their pages are gone (Chromium may keep one spare)
    const deadline = Date.now() + 10_000
    while (renderers(browserPid) - baseline > 1 && Date.now() < deadline) await sleep(200)
    expect(renderers(browserPid) - baseline).toBeLessThanOrEqual(1)
    for (const session of pages) {
      const state = await session.run('next job', 20_000, async (page) => {
        await navigate(page, `${url}/messages`, 15_000)
        return page.evaluate(() => ({
          cookie: document.cookie,
          keys: localStorage.getItem('xchat:identity'),
        }))
      })
      expect(state).toEqual({ cookie: 'session=warm', keys: 'keys' })
      await session.close()
    }
    await anchor.close()
  }, 120_000)
})
