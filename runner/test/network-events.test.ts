// Network events reach the runner only for the pages that asked for them: an account's page
// loading a site with several requests delivers none, while a page that watches its network (a
// scrape's listing capture) sees every request of its own, and none of another account's.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'puppeteer-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { navigate } from '../src/browser/navigate.ts'
import { watchNetwork } from '../src/browser/network-events.ts'
import { BrowserPool } from '../src/browser/pool.ts'
import { BROWSER_SUITE } from './helpers/x-session.ts'

// The icon is inline: a favicon request the browser makes whenever it likes would be one more
// request than the page's own, on some runs and not others.
const PAGE = `<!doctype html><title>site</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="/style.css"><script src="/app.js"></script>
<p>signed in</p><script>fetch('/api/one').then(() => fetch('/api/two')).then(() => (document.title = 'done'))</script>`

describe('network events per page', BROWSER_SUITE, () => {
  let site: Server
  let url = ''
  const pool = new BrowserPool()

  beforeAll(async () => {
    site = createServer((req, res) => {
      if (req.url === '/home') res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE)
      else if (req.url === '/style.css') res.writeHead(200, { 'content-type': 'text/css' }).end('p{}')
      else if (req.url === '/app.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end('1')
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    await pool.close()
    site.close()
  })

  /** The paths of the requests, finished requests and responses the page's events reported. */
  function recorded(page: Page) {
    const seen = { requests: [] as string[], finished: [] as string[], responses: [] as string[] }
    const bodies = new Map<string, Promise<string>>()
    const path = (u: string) => new URL(u).pathname
    page.on('request', (r) => seen.requests.push(path(r.url())))
    page.on('response', (r) => seen.responses.push(path(r.url())))
    page.on('requestfinished', (r) => {
      seen.finished.push(path(r.url()))
      const response = r.response()
      // read now, as the capture does; a body nobody awaits fails quietly once the page is closed
      const body = response?.text()
      body?.catch(() => undefined)
      if (body) bodies.set(path(r.url()), body)
    })
    return Object.assign(seen, { bodies })
  }

  async function load(page: Page): Promise<void> {
    await navigate(page, `${url}/home`, 60_000)
    // the page's own fetches end by setting the title; a busy machine may take a while
    await vi.waitFor(async () => expect(await page.title()).toBe('done'), { timeout: 120_000, interval: 100 })
  }

  it('delivers none for an account page that does not watch, all of its own for one that does', async () => {
    const plain = await (await pool.newContext()).newPage()
    const watched = await (await pool.newContext()).newPage()
    const all = ['/home', '/style.css', '/app.js', '/api/one', '/api/two']
    const plainSeen = recorded(plain)
    const watchedSeen = recorded(watched)
    await watchNetwork(watched)
    await Promise.all([load(plain), load(watched)])
    // the last fetch resolves the page's promise on its response; its "finished" event may follow
    await vi.waitFor(() => expect([...watchedSeen.finished].sort()).toEqual([...all].sort()), {
      timeout: 60_000,
      interval: 50,
    })
    expect(plainSeen).toMatchObject({ requests: [], finished: [], responses: [] })
    expect([...watchedSeen.requests].sort()).toEqual([...all].sort())
    expect([...watchedSeen.finished].sort()).toEqual([...all].sort())
    expect([...watchedSeen.responses].sort()).toEqual([...all].sort())
    // the capture reads its answers' bodies: they are still collected for a watched page
    expect(await watchedSeen.bodies.get('/api/one')).toBe('{}')
    await plain.close()
    await watched.close()
  })
})
