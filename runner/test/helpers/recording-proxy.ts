// A forward HTTP proxy on loopback, as paid proxies are: it wants its own Basic login, refuses any
// other with 407, forwards absolute-form requests (the sandboxes are plain http) and CONNECT
// tunnels (https sites; recorded as "CONNECT host:port"), and records what came through it with
// which login. Used by the pool tests and the proxy benchmark.
import { createServer, request, type Server } from 'node:http'
import { type AddressInfo, connect, type Socket } from 'node:net'

export interface ProxiedRequest {
  url: string
  /** The login the request carried ("user:password"), or null. */
  login: string | null
}

export class RecordingProxy {
  readonly seen: ProxiedRequest[] = []
  /** Requests refused for a missing or wrong login (each challenge counts). */
  refused = 0
  /** Of those, the ones that carried a login, but not one of this proxy's: someone else's credentials. */
  wrongLogins = 0
  /** TCP connections the browser opened to this proxy. */
  connections = 0
  #server: Server | undefined
  port = 0

  constructor(readonly logins: readonly string[]) {}

  static async start(...logins: string[]): Promise<RecordingProxy> {
    const proxy = new RecordingProxy(logins)
    await proxy.#listen()
    return proxy
  }

  /** The account's proxy URL as the runner gets it (pinned IP literal, sealed login). */
  urlFor(login: string): string {
    return `http://${login.split(':').map(encodeURIComponent).join(':')}@127.0.0.1:${this.port}`
  }

  async #listen(): Promise<void> {
    this.#server = createServer((req, res) => {
      const login = loginOf(req.headers['proxy-authorization'])
      if (!login || !this.logins.includes(login)) {
        this.refused++
        if (login) this.wrongLogins++
        res.writeHead(407, { 'proxy-authenticate': 'Basic realm="proxy"' })
        res.end()
        return
      }
      this.seen.push({ url: req.url ?? '', login })
      const headers = { ...req.headers }
      delete headers['proxy-authorization']
      const upstream = request(new URL(req.url ?? ''), { method: req.method, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      })
      upstream.on('error', () => res.destroy())
      req.pipe(upstream)
    })
    this.#server.on('connect', (req, client: Socket, head: Buffer) => {
      const login = loginOf(req.headers['proxy-authorization'])
      if (!login || !this.logins.includes(login)) {
        this.refused++
        if (login) this.wrongLogins++
        client.end(
          'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="proxy"\r\n\r\n',
        )
        return
      }
      this.seen.push({ url: `CONNECT ${req.url ?? ''}`, login })
      const [host = '', port = ''] = (req.url ?? '').split(/:(?=\d+$)/)
      const target = connect({ host, port: Number(port) }, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        if (head.length > 0) target.write(head)
        target.pipe(client)
        client.pipe(target)
      })
      target.on('error', () => client.destroy())
      client.on('error', () => target.destroy())
    })
    this.#server.on('connection', () => this.connections++)
    // a browser keeps proxy connections alive; close() must not wait for them
    this.#server.keepAliveTimeout = 1_000
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve))
    this.port = (this.#server.address() as AddressInfo).port
  }

  async close(): Promise<void> {
    this.#server?.closeAllConnections()
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()) ?? resolve())
  }
}

function loginOf(header: string | undefined): string | null {
  return header?.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8') : null
}

/**
 * A site on loopback answering every path with a small page that names the path; a path ending in
 * /basic asks for HTTP Basic auth (401), and every Authorization it is sent is kept in `logins`.
 */
export async function startSite(): Promise<{ url: string; logins: string[]; close: () => Promise<void> }> {
  const logins: string[] = []
  const site = createServer((req, res) => {
    const login = loginOf(req.headers.authorization)
    if (login) logins.push(login)
    if (req.url?.endsWith('/basic')) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="site"', 'content-type': 'text/html' })
      res.end('<!doctype html><title>sign in</title>')
      return
    }
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end(`<!doctype html><title>${req.url}</title><p>page ${req.url}</p>`)
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(site.address() as AddressInfo).port}`,
    logins,
    close: async () => {
      site.closeAllConnections()
      await new Promise<void>((resolve) => site.close(() => resolve()))
    },
  }
}
