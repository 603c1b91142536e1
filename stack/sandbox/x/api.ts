// X's internal endpoints the web app uses: verify_credentials and settings (404 to cookie sessions
// since July 2026), the people typeahead, and GraphQL, answered only for the current release's query
// ids with the page's transaction id (else 404 with an empty body, as x.com does). X Chat's own
// endpoints are in xchat-api.ts.
import type { ServerResponse } from 'node:http'
import type { Router } from '../social/http.ts'
import type { Messaging } from '../social/messaging.ts'
import type { OwnAccount, Thread } from '../social/state.ts'
import { apiAccount } from './accounts.ts'
import { handleGraphql } from './graphql.ts'
import type { Releases } from './release.ts'

function emptyNotFound(res: ServerResponse): void {
  res.writeHead(404, { 'content-length': '0' })
  res.end()
}

export function registerXApi(router: Router, messaging: Messaging, releases: Releases): void {
  const world = messaging.world

  // cookie sessions get 404 here since July 2026 (twitter-cli #73): only a page load proves a session
  router.on('GET', '/i/api/1.1/account/verify_credentials.json', (_req, res) => emptyNotFound(res))
  router.on('GET', '/i/api/1.1/account/settings.json', (_req, res) => emptyNotFound(res))

  router.on('GET', '/i/api/1.1/search/typeahead.json', (req, res) => {
    apiAccount(world, req)
    const q = (req.url.searchParams.get('q') ?? '').replace(/^@/, '').toLowerCase()
    const users = q
      ? messaging.population.profiles.filter((p) => p.username.toLowerCase().startsWith(q)).slice(0, 8)
      : []
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
    res.end(
      JSON.stringify({ users: users.map((u) => ({ id_str: u.id, screen_name: u.username, name: u.name })) }),
    )
  })

  router.on('GET', '/i/api/graphql/:queryId/:operation', (req, res) => {
    const operation = req.params.operation ?? ''
    const queryId = req.params.queryId ?? ''
    const header = req.headers['x-client-transaction-id']
    if (!releases.accepts(operation, queryId, req.method, req.url.pathname, header)) return emptyNotFound(res)
    handleGraphql(messaging, req, res)
  })
}

/** A thread is a message request while only the peer has written. */
export function isRequest(account: OwnAccount, thread: Thread): boolean {
  return thread.startedByPeer && !thread.messages.some((m) => m.senderId === account.id)
}

/** The thread behind a conversation id, if the account is part of it. */
export function ownThread(messaging: Messaging, account: OwnAccount, id: string): Thread | undefined {
  const thread = messaging.world.threads.get(id)
  return thread?.accountId === account.id ? thread : undefined
}

/** The peer of a one-to-one conversation id, which must include the sender's own id. */
export function peerIdOf(account: OwnAccount, conversation: string): string | undefined {
  const parts = conversation.split('-')
  if (parts.length !== 2 || !parts.every((p) => /^\d+$/.test(p))) return undefined
  if (parts[0] === account.id) return parts[1]
  if (parts[1] === account.id) return parts[0]
  return undefined
}
