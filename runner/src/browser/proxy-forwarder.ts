// An account's proxy login never enters the browser. WebDriver BiDi reports a proxy's 407 and a
// site's 401 through the same auth hook, and puppeteer's page.authenticate answers both with the
// one login it holds: any site a page reached that asked for Basic auth would have received the
// account's proxy login. So the context's proxy is this forwarder on loopback, which adds the
// login on its own way to the account's proxy: CONNECT tunnels (https sites) and absolute-form
// requests (http sites) alike, for every page of the context, popups included.
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { type AddressInfo, connect as netConnect, type Socket } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import type { ProxyConfig } from './proxy.ts'

export class ProxyForwarder {
  readonly #server: Server
  readonly #sockets = new Set<Socket>()

  private constructor(
    readonly upstream: URL,
    readonly authorization: string,
  ) {
    this.#server = createServer((req, res) => {
      const forward = this.upstream.protocol === 'https:' ? httpsRequest : httpRequest
      const outbound = forward(
        {
          host: this.upstream.hostname,
          port: Number(this.upstream.port),
          method: req.method,
          path: req.url,
          headers: { ...withoutProxyLogin(req), 'proxy-authorization': this.authorization },
          servername: this.upstream.hostname,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        },
      )
      outbound.on('error', () => res.destroy())
      req.pipe(outbound)
    })
    this.#server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) =>
      this.#tunnel(req, client, head),
    )
    this.#server.on('connection', (socket: Socket) => {
      this.#sockets.add(socket)
      socket.once('close', () => this.#sockets.delete(socket))
    })
    // a browser keeps proxy connections alive; close() must not wait for them
    this.#server.keepAliveTimeout = 5_000
  }

  /** A forwarder for a proxy with a login; the browser is given `server` instead of the proxy. */
  static async start(proxy: ProxyConfig): Promise<ProxyForwarder> {
    const login = `${proxy.username ?? ''}:${proxy.password ?? ''}`
    const forwarder = new ProxyForwarder(
      new URL(proxy.server),
      `Basic ${Buffer.from(login, 'utf8').toString('base64')}`,
    )
    await new Promise<void>((resolve, reject) => {
      forwarder.#server.once('error', reject)
      forwarder.#server.listen(0, '127.0.0.1', resolve)
    })
    return forwarder
  }

  /** What the browser context uses as its proxy. */
  get server(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`
  }

  #tunnel(req: IncomingMessage, client: Socket, head: Buffer): void {
    const target = req.url ?? ''
    const port = Number(this.upstream.port)
    const upstream =
      this.upstream.protocol === 'https:'
        ? tlsConnect({ host: this.upstream.hostname, port, servername: this.upstream.hostname })
        : netConnect({ host: this.upstream.hostname, port })
    this.#sockets.add(upstream)
    upstream.once('close', () => this.#sockets.delete(upstream))
    upstream.once(this.upstream.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
      // the proxy's own answer (200, or 407 for a refused login) goes back to the browser as is
      upstream.write(
        `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: ${this.authorization}\r\n\r\n`,
      )
      if (head.length > 0) upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    upstream.on('error', () => {
      if (client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n')
      client.destroy()
    })
    client.on('error', () => upstream.destroy())
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy()
    await new Promise<void>((resolve) => this.#server.close(() => resolve()))
  }
}

/** The browser's request headers without any login of its own for the proxy (it never has one). */
function withoutProxyLogin(req: IncomingMessage): IncomingMessage['headers'] {
  const headers = { ...req.headers }
  delete headers['proxy-authorization']
  delete headers['proxy-connection']
  return headers
}
