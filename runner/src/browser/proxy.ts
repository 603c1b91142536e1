// An account's proxy URL as users give it (`user:pass@host:port`, with or without a scheme, or
// `host:port:user:pass`), split into what Chromium takes (--proxy-server) and the credentials it
// asks for on a 407.

export interface ProxyConfig {
  /** scheme://host:port for --proxy-server. */
  server: string
  username?: string
  password?: string
}

const SCHEMES = ['http', 'https', 'socks4', 'socks5']

export function parseProxyUrl(input: string): ProxyConfig {
  const text = input.trim()
  if (!text) throw new Error('Proxy URL is empty.')
  const colonForm = /^([^:@/\s]+):(\d{1,5}):([^:@\s]+):(.+)$/.exec(text)
  if (colonForm) {
    const [, host = '', port = '', username = '', password = ''] = colonForm
    return checked({ server: `http://${host}:${port}`, username, password })
  }
  const withScheme = /^[a-z0-9]+:\/\//i.test(text) ? text : `http://${text}`
  let url: URL
  try {
    url = new URL(withScheme)
  } catch {
    throw new Error('Proxy URL must look like user:pass@host:port.')
  }
  const scheme = url.protocol.replace(/:$/, '').toLowerCase()
  if (!SCHEMES.includes(scheme)) throw new Error(`Proxy scheme must be one of ${SCHEMES.join(', ')}.`)
  if (!url.port) throw new Error('Proxy URL needs a port (host:port).')
  return checked({
    server: `${scheme}://${url.hostname}:${url.port}`,
    ...(url.username
      ? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) }
      : {}),
  })
}

function checked(config: ProxyConfig): ProxyConfig {
  const port = Number(new URL(config.server).port)
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error('Proxy port must be 1–65535.')
  return config
}
