// The connect check's proxy step: before an account may be Active, its proxy must be
// reachable, accept its login and reach the platform. Speaks HTTP proxy directly (CONNECT for
// https platforms, an absolute-form GET for http ones, as the sandboxes are), so the failure can
// name the proxy and say which of the three went wrong instead of "X did not show the home page".
import { connect, type Socket } from 'node:net'
import type { ProxyConfig } from './proxy.ts'
import { pinnedProxyProblem } from './proxy-guard.ts'

export const PROXY_CHECK_TIMEOUT_MS = 10_000

/** Null when the proxy works for `target`; otherwise what is wrong, naming the proxy. */
export async function checkProxy(
  proxy: ProxyConfig,
  target: string,
  timeoutMs = PROXY_CHECK_TIMEOUT_MS,
): Promise<string | null> {
  const server = new URL(proxy.server)
  const name = `${server.hostname}:${server.port}`
  if (!['http:', 'https:'].includes(server.protocol)) return null // SOCKS: Chromium's own check decides
  const unpinned = pinnedProxyProblem(proxy.server)
  if (unpinned) return unpinned
  const url = new URL(target)
  const targetPort = url.port || (url.protocol === 'https:' ? '443' : '80')
  const auth = proxy.username
    ? `Proxy-Authorization: Basic ${Buffer.from(`${proxy.username}:${proxy.password ?? ''}`).toString('base64')}\r\n`
    : ''
  const request =
    url.protocol === 'https:'
      ? `CONNECT ${url.hostname}:${targetPort} HTTP/1.1\r\nHost: ${url.hostname}:${targetPort}\r\n${auth}\r\n`
      : `HEAD ${url.origin}/ HTTP/1.1\r\nHost: ${url.host}\r\n${auth}Connection: close\r\n\r\n`
  return new Promise((resolve) => {
    let socket: Socket | undefined
    let answer = ''
    const finish = (problem: string | null) => {
      clearTimeout(timer)
      socket?.destroy()
      resolve(problem)
    }
    const timer = setTimeout(
      () =>
        finish(
          `Proxy ${name} did not answer within ${Math.round(timeoutMs / 1000)} s. Check the proxy's host and port.`,
        ),
      timeoutMs,
    )
    // an IPv6 hostname comes in brackets from URL; the socket wants the bare address
    const host = server.hostname.replace(/^\[|\]$/g, '')
    socket = connect({ host, port: Number(server.port) }, () => socket?.write(request))
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish(
        `Proxy ${name} could not be reached (${error.code ?? error.message}). Check the proxy's host and port.`,
      ),
    )
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1')
      const line = answer.split('\r\n')[0] ?? ''
      if (!line.includes(' ')) return
      const status = Number(line.split(' ')[1])
      if (status === 407)
        finish(`Proxy ${name} refused the login (407). Check the proxy's username and password.`)
      else if (status >= 200 && status < 400) finish(null)
      else
        finish(
          `Proxy ${name} could not reach ${url.hostname} (${line.trim()}). Check the proxy, or use another one.`,
        )
    })
    socket.on('end', () => {
      if (!answer)
        finish(`Proxy ${name} closed the connection without answering. Check the proxy's host and port.`)
    })
  })
}
