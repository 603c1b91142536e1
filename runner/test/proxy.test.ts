// One stable proxy per account: the account's context reaches the site through its proxy (with
// the proxy's credentials), and proxy URLs in the forms users paste are understood.
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BrowserPool } from '../src/browser/pool.ts'
import { parseProxyUrl } from '../src/browser/proxy.ts'
import { checkProxy } from '../src/browser/proxy-check.ts'
import { accountProxy } from '../src/browser/proxy-guard.ts'
import { SandboxAdmin, sandboxUrl } from './helpers/sandbox.ts'
import { BROWSER_SUITE, newXAccount, openX } from './helpers/x-session.ts'

describe('parseProxyUrl', () => {
  it('reads user:pass@host:port with or without a scheme, and host:port:user:pass', () => {
    expect(parseProxyUrl('alice:s3cret@10.0.0.5:8080')).toEqual({
      server: 'http://10.0.0.5:8080',
      username: 'alice',
      password: 's3cret',
    })
    expect(parseProxyUrl('socks5://bob:p%40ss@proxy.example:1080')).toEqual({
      server: 'socks5://proxy.example:1080',
      username: 'bob',
      password: 'p@ss',
    })
    expect(parseProxyUrl('proxy.example:3128')).toEqual({ server: 'http://proxy.example:3128' })
    expect(parseProxyUrl('proxy.example:3128:carol:pw')).toEqual({
      server: 'http://proxy.example:3128',
      username: 'carol',
      password: 'pw',
    })
  })

  it('explains bad proxy URLs', () => {
    expect(() => parseProxyUrl('')).toThrow(/empty/)
    expect(() => parseProxyUrl('ftp://h:21')).toThrow(/scheme/)
    expect(() => parseProxyUrl('user:pw@host')).toThrow(/port/)
    expect(() => parseProxyUrl('host:99999')).toThrow(/port|look like/)
  })
})

describe('browser traffic through the account proxy', BROWSER_SUITE, () => {
  const admin = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
  let proxy: Server
  let port = 0
  const seen: { url: string; auth: string | undefined }[] = []
  let pool: BrowserPool

  beforeAll(async () => {
    // a minimal forward proxy asking for Basic credentials, as paid proxies do
    proxy = createServer((req, res) => {
      const auth = req.headers['proxy-authorization']
      if (auth !== `Basic ${Buffer.from('alice:s3cret').toString('base64')}`) {
        res.writeHead(407, { 'proxy-authenticate': 'Basic realm="proxy"' })
        res.end()
        return
      }
      seen.push({ url: req.url ?? '', auth })
      const target = new URL(req.url ?? '')
      const headers = { ...req.headers }
      delete headers['proxy-authorization']
      const upstream = request(target, { method: req.method, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      })
      upstream.on('error', () => res.destroy())
      req.pipe(upstream)
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    port = (proxy.address() as AddressInfo).port
    pool = new BrowserPool()
  })
  afterAll(async () => {
    await pool.close()
    proxy.close()
  })

  it('opens the X session through the proxy with its credentials, and other accounts do not use it', async () => {
    const session = await openX(admin, pool, await newXAccount(admin), {
      proxy: `alice:s3cret@127.0.0.1:${port}`,
    })
    expect(seen.some((r) => r.url.startsWith(`${admin.base}/home`))).toBe(true)
    const before = seen.length
    const direct = await openX(admin, pool, await newXAccount(admin))
    expect(seen.length).toBe(before)
    // one browser for both: the proxy is the context's, not the browser's
    expect((await pool.stats()).browsers).toBe(1)
    await direct.close()
    await session.close()
  })
})

describe('the account proxy at connect time', () => {
  const login = { username: 'alice', password: 'p@ss:word' }

  it('refuses private, loopback and metadata addresses and service ports, naming the proxy', async () => {
    await expect(accountProxy('127.0.0.1:3128', login)).resolves.toEqual({
      problem: expect.stringMatching(/Proxy 127\.0\.0\.1 points at a private or local address/),
    })
    await expect(accountProxy('169.254.169.254:8080', null)).resolves.toHaveProperty('problem')
    await expect(accountProxy('203.0.113.9:5432', null)).resolves.toEqual({
      problem: expect.stringMatching(/Proxy port 5432 is not a proxy port/),
    })
  })

  it('resolves a name at connect time and refuses it when any address is private (DNS rebinding)', async () => {
    const rebound = async () => ['203.0.113.9', '10.0.0.8']
    await expect(accountProxy('proxy.example.com:3128', login, [], rebound)).resolves.toEqual({
      problem: expect.stringMatching(
        /proxy\.example\.com points at a private or local address \(10\.0\.0\.8\)/,
      ),
    })
    const gone = async () => []
    await expect(accountProxy('gone.example.com:3128', login, [], gone)).resolves.toEqual({
      problem: expect.stringMatching(/could not be found/),
    })
  })

  it('pins the resolved public address and adds the sealed login', async () => {
    const resolved = async () => ['203.0.113.9']
    const proxy = await accountProxy('socks5://proxy.example.com:1080', login, [], resolved)
    expect(proxy).toEqual({ url: 'socks5://alice:p%40ss%3Aword@203.0.113.9:1080' })
    expect(parseProxyUrl((proxy as { url: string }).url)).toEqual({
      server: 'socks5://203.0.113.9:1080',
      username: 'alice',
      password: 'p@ss:word',
    })
    expect(await accountProxy(null, login)).toEqual({ url: null })
  })

  it('lets a test use a loopback proxy only when it is listed', async () => {
    expect(await accountProxy('127.0.0.1:3128', null, ['127.0.0.1:3128'])).toEqual({
      url: 'http://127.0.0.1:3128',
    })
    expect(await accountProxy('127.0.0.1:3129', null, ['127.0.0.1:3128'])).toHaveProperty('problem')
  })
})

describe('the proxy step of the connect check', () => {
  let proxy: Server
  let port = 0
  beforeAll(async () => {
    // a forward proxy that wants alice:s3cret and can reach only the X sandbox
    proxy = createServer((req, res) => {
      if (req.headers['proxy-authorization'] !== `Basic ${Buffer.from('alice:s3cret').toString('base64')}`) {
        res.writeHead(407, { 'proxy-authenticate': 'Basic realm="proxy"' })
        res.end()
        return
      }
      const target = new URL(req.url ?? '')
      if (target.origin !== new URL(sandboxUrl('X_BASE_URL')).origin) {
        res.writeHead(502)
        res.end()
        return
      }
      res.writeHead(200)
      res.end()
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    port = (proxy.address() as AddressInfo).port
  })
  afterAll(() => {
    proxy.close()
  })

  it('passes a proxy that accepts the login and reaches the platform', async () => {
    const server = `http://127.0.0.1:${port}`
    expect(
      await checkProxy({ server, username: 'alice', password: 's3cret' }, sandboxUrl('X_BASE_URL')),
    ).toBeNull()
  })

  it('reaches a proxy pinned to an IPv6 address', async () => {
    const v6 = createServer((req, res) => {
      res.writeHead(req.headers['proxy-authorization'] ? 200 : 407)
      res.end()
    })
    await new Promise<void>((resolve) => v6.listen(0, '::1', resolve))
    try {
      const server = `http://[::1]:${(v6.address() as AddressInfo).port}`
      expect(
        await checkProxy({ server, username: 'alice', password: 's3cret' }, sandboxUrl('X_BASE_URL')),
      ).toBeNull()
    } finally {
      v6.close()
    }
  })

  it('names the proxy and what went wrong: login refused, platform unreachable, nothing listening', async () => {
    const server = `http://127.0.0.1:${port}`
    expect(await checkProxy({ server, username: 'alice', password: 'wrong' }, sandboxUrl('X_BASE_URL'))).toBe(
      `Proxy 127.0.0.1:${port} refused the login (407). Check the proxy's username and password.`,
    )
    expect(await checkProxy({ server, username: 'alice', password: 's3cret' }, 'http://127.0.0.1:9')).toMatch(
      new RegExp(`^Proxy 127\\.0\\.0\\.1:${port} could not reach 127\\.0\\.0\\.1 \\(HTTP/1\\.1 502`),
    )
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const closedPort = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    expect(await checkProxy({ server: `http://127.0.0.1:${closedPort}` }, sandboxUrl('X_BASE_URL'))).toBe(
      `Proxy 127.0.0.1:${closedPort} could not be reached (ECONNREFUSED). Check the proxy's host and port.`,
    )
  })
})
