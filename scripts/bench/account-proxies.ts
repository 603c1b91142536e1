// Every bench account behind its own proxy, as customers run them: one local forward proxy per
// account that accepts only that account's login (sealed into its credentials, proxy_url keeping
// host:port, as the api function stores it) and counts the connections and requests it served.
// The database refuses a loopback proxy address (rightly, for customers); the bench writes it with
// that check off inside its own transaction, and the runner is allowed these host:ports only
// (RUNNER_ALLOW_PROXY_HOSTS), as the pool tests do.
import type pg from 'pg'
import { decryptSecret, encryptSecret, keyringFromEnv } from '../../runner/src/crypto.ts'
import { RecordingProxy } from '../../runner/test/helpers/recording-proxy.ts'

export interface AccountProxy {
  accountId: string
  login: string
  proxy: RecordingProxy
}

export async function proxyEveryAccount(db: pg.Pool, accountIds: string[]): Promise<AccountProxy[]> {
  const keyring = keyringFromEnv()
  const proxies: AccountProxy[] = []
  const client = await db.connect()
  try {
    await client.query('begin')
    // disabled inside this transaction only: no other session ever sees the table without it
    await client.query('alter table public.social_accounts disable trigger social_accounts_check_proxy')
    for (const [i, accountId] of accountIds.entries()) {
      const login = `bench${i}:secret-${accountId.slice(0, 8)}`
      const proxy = await RecordingProxy.start(login)
      proxies.push({ accountId, login, proxy })
      const { rows } = await client.query<{ ciphertext: string }>(
        'select ciphertext from public.social_account_credentials where account_id = $1',
        [accountId],
      )
      const [username = '', password = ''] = login.split(':')
      const credentials = {
        ...JSON.parse(decryptSecret(rows[0]?.ciphertext ?? '', keyring)),
        proxy: { username, password },
      }
      await client.query(
        'update public.social_account_credentials set ciphertext = $2, key_id = $3 where account_id = $1',
        [accountId, encryptSecret(JSON.stringify(credentials), keyring), keyring.currentKeyId],
      )
      await client.query('update public.social_accounts set proxy_url = $2 where id = $1', [
        accountId,
        `127.0.0.1:${proxy.port}`,
      ])
    }
    await client.query('alter table public.social_accounts enable trigger social_accounts_check_proxy')
    await client.query('commit')
  } catch (error) {
    await client.query('rollback')
    await Promise.all(proxies.map((p) => p.proxy.close()))
    throw error
  } finally {
    client.release()
  }
  return proxies
}

/** What RUNNER_ALLOW_PROXY_HOSTS must list for the runner to use them. */
export const allowList = (proxies: AccountProxy[]) =>
  proxies.map((p) => `127.0.0.1:${p.proxy.port}`).join(',')

/**
 * Per-account proxy traffic: connections and requests, accounts whose proxy saw no traffic at all,
 * and logins used on another account's proxy (each one a failure: credentials crossed accounts).
 */
export function proxyTraffic(proxies: AccountProxy[]) {
  const connections = proxies.map((p) => p.proxy.connections)
  return {
    connections: connections.reduce((a, b) => a + b, 0),
    requests: proxies.reduce((sum, p) => sum + p.proxy.seen.length, 0),
    maxConnectionsPerAccount: Math.max(0, ...connections),
    unused: proxies.filter((p) => p.proxy.seen.length === 0).length,
    wrongLogins: proxies.reduce((sum, p) => sum + p.proxy.wrongLogins, 0),
  }
}

/** X Chat documents the proxies carried (page loads, not the app's API calls), by page. */
export function chatPageLoads(proxies: AccountProxy[]) {
  const loads = { inbox: 0, requests: 0, thread: 0 }
  for (const { proxy } of proxies)
    for (const { url } of proxy.seen) {
      if (url.startsWith('CONNECT ')) continue
      const path = new URL(url, 'http://proxy.invalid').pathname.replace(/\/$/, '')
      if (path === '/i/chat') loads.inbox += 1
      else if (path === '/i/chat/requests') loads.requests += 1
      else if (/^\/i\/chat\/[^/]+-[^/]+$/.test(path)) loads.thread += 1
    }
  return loads
}

export async function closeProxies(proxies: AccountProxy[]): Promise<void> {
  await Promise.all(proxies.map((p) => p.proxy.close()))
}
