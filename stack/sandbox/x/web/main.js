// The X web app's main bundle (served as /responsive-web/client-web/main.<release>.js with BUILD
// prepended: the release's GraphQL operations, its transaction salt, the X Chat bundle's address and
// the site-change drill's renamed test ids). Everything on the page is rendered here from the
// initial state and from the GraphQL calls this bundle makes, each signed with the
// x-client-transaction-id only this code computes.
/* global BUILD */
const BEARER =
  'AAAAAAAAAAAAAAAAAAAAANRILgAAAAAAnNwIzUejRCOuH5E6I8xnZz4puTs%3D1Zv7ttfk8LF81IUq16cHjhLTvJu4FA33AGWWjCpTnA'
const EPOCH = 1682924400000
const FEATURES = {
  responsive_web_graphql_timeline_navigation_enabled: true,
  responsive_web_graphql_skip_user_profile_image_extensions_enabled: false,
  longform_notetweets_consumption_enabled: true,
}
const STATE = JSON.parse(document.getElementById('__INITIAL_STATE__').textContent)
const T = (id) => BUILD.renames[id] ?? id
const root = document.getElementById('react-root')

function h(tag, attrs, ...children) {
  const el = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue
    if (name.startsWith('on')) el.addEventListener(name.slice(2), value)
    else el.setAttribute(name, value === true ? '' : String(value))
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) el.append(child)
  return el
}

function ct0() {
  return /(?:^|; )ct0=([^;]*)/.exec(document.cookie)?.[1] ?? ''
}

function saltBytes() {
  const [masked, mask] = BUILD.salt
  return Uint8Array.from(masked, (b, i) => b ^ ((mask + i * 7) & 255))
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

/** x-client-transaction-id: the page's verification key, the time and a hash over method and path. */
async function transactionId(method, path) {
  const meta = document.querySelector('meta[name="twitter-site-verification"]')
  const key = Uint8Array.from(atob(meta?.content ?? ''), (c) => c.charCodeAt(0))
  const time = Math.floor((Date.now() - EPOCH) / 1000)
  const timeBytes = new Uint8Array([(time >>> 24) & 255, (time >>> 16) & 255, (time >>> 8) & 255, time & 255])
  const text = new TextEncoder().encode(`${method}!${path}!${time}`)
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', concat(text, saltBytes(), key)))
  const payload = concat(key, timeBytes, digest.slice(0, 16), new Uint8Array([3]))
  const mask = crypto.getRandomValues(new Uint8Array(1))[0]
  const out = concat(
    new Uint8Array([mask]),
    payload.map((b) => b ^ mask),
  )
  return btoa(String.fromCharCode(...out)).replace(/=+$/, '')
}

function headers() {
  return {
    authorization: `Bearer ${BEARER}`,
    'x-csrf-token': ct0(),
    'x-twitter-auth-type': 'OAuth2Session',
    'x-twitter-active-user': 'yes',
    'x-twitter-client-language': 'en',
    'content-type': 'application/json',
  }
}

/** One GraphQL call of this release: its query id, the transaction id, the variables. */
async function graphql(operationName, variables) {
  const op = BUILD.operations.find((o) => o.operationName === operationName)
  const path = `/i/api/graphql/${op.queryId}/${operationName}`
  const query = new URLSearchParams({
    variables: JSON.stringify(variables),
    features: JSON.stringify(FEATURES),
  })
  const response = await fetch(`${path}?${query}`, {
    headers: { ...headers(), 'x-client-transaction-id': await transactionId('GET', path) },
    credentials: 'include',
  })
  // like x.com's client, it gives up on an error answer without reading its body (code 88 and the
  // like): in Chromium over WebDriver BiDi such a request may never report that it finished
  if (!response.ok) throw new Error(`HTTP ${response.status}`)
  return JSON.parse(await response.text())
}

function somethingWentWrong(into) {
  into.replaceChildren(
    h(
      'div',
      { role: 'alert', class: 'page-error' },
      h('span', {}, 'Something went wrong. Try reloading.'),
      ' ',
      h('button', { type: 'button', onclick: () => location.reload() }, 'Retry'),
    ),
  )
}

function sideNav() {
  const viewer = STATE.viewer
  return h(
    'nav',
    { 'aria-label': 'Primary', role: 'navigation' },
    h('a', { href: '/home', 'data-testid': T('AppTabBar_Home_Link'), 'aria-label': 'Home' }, 'Home'),
    h(
      'a',
      { href: '/explore', 'data-testid': T('AppTabBar_Explore_Link'), 'aria-label': 'Search and explore' },
      'Explore',
    ),
    h(
      'a',
      { href: '/i/chat', 'data-testid': T('AppTabBar_DirectMessage_Link'), 'aria-label': 'Chat' },
      'Chat',
    ),
    h(
      'a',
      { href: `/${viewer.screen_name}`, 'data-testid': T('AppTabBar_Profile_Link'), 'aria-label': 'Profile' },
      'Profile',
    ),
    h(
      'button',
      { type: 'button', 'data-testid': T('SideNav_AccountSwitcher_Button'), 'aria-label': 'Account menu' },
      h('span', {}, viewer.name),
      ' ',
      h('span', {}, `@${viewer.screen_name}`),
    ),
  )
}

function userCell(user) {
  const core = user.core ?? {}
  const legacy = user.legacy ?? {}
  return h(
    'div',
    { 'data-testid': T('cellInnerDiv') },
    h(
      'div',
      { 'data-testid': T('UserCell'), role: 'button', tabindex: 0 },
      h(
        'a',
        { href: `/${core.screen_name}`, role: 'link' },
        h('span', {}, core.name),
        ' ',
        h('span', {}, `@${core.screen_name}`),
      ),
      h('div', { dir: 'auto' }, legacy.description ?? ''),
    ),
  )
}

function tweetCell(tweet) {
  const author = tweet.core?.user_results?.result ?? {}
  const core = author.core ?? {}
  return h(
    'div',
    { 'data-testid': T('cellInnerDiv') },
    h(
      'article',
      { 'data-testid': T('tweet'), role: 'article' },
      h(
        'div',
        { 'data-testid': T('User-Name') },
        h('a', { href: `/${core.screen_name}` }, core.name),
        ' ',
        h('span', {}, `@${core.screen_name}`),
      ),
      h('div', { 'data-testid': T('tweetText'), dir: 'auto', lang: 'en' }, tweet.legacy?.full_text ?? ''),
      h('time', { datetime: new Date(tweet.legacy?.created_at ?? 0).toISOString() }),
    ),
  )
}

function instructionsOf(body) {
  const data = body?.data ?? {}
  return (
    data.user?.result?.timeline?.timeline?.instructions ??
    data.search_by_raw_query?.search_timeline?.timeline?.instructions ??
    []
  )
}

/**
 * A timeline with infinite scroll: the first page now, the next (Bottom cursor) when the sentinel at
 * the end comes into view; a repeated cursor or an empty page is the end.
 */
function timeline(into, load) {
  const list = h('div', { 'aria-label': 'Timeline', role: 'region' })
  const sentinel = h('div', { 'aria-hidden': 'true', style: 'height:1px' })
  const spinner = h('div', { role: 'progressbar', 'aria-label': 'Loading' })
  into.replaceChildren(list, spinner, sentinel)
  let cursor = null
  let loading = false
  let done = false
  async function more() {
    if (loading || done) return
    loading = true
    spinner.hidden = false
    let body
    try {
      body = await load(cursor)
    } catch {
      spinner.remove()
      somethingWentWrong(sentinel)
      done = true
      return
    }
    let bottom = null
    let items = 0
    const visit = (entry) => {
      const content = entry?.content ?? {}
      if (content.cursorType === 'Bottom') bottom = content.value
      const item = content.itemContent ?? {}
      if (item.user_results?.result) {
        list.append(userCell(item.user_results.result))
        items++
      }
      if (item.tweet_results?.result) {
        list.append(tweetCell(item.tweet_results.result))
        items++
      }
    }
    for (const instruction of instructionsOf(body)) {
      if (instruction.type === 'TimelineAddEntries') for (const entry of instruction.entries) visit(entry)
      if (instruction.type === 'TimelineReplaceEntry') visit(instruction.entry)
    }
    if (items === 0 || !bottom || bottom === cursor) {
      done = true
      spinner.remove()
      if (list.children.length === 0)
        list.append(h('div', { 'data-testid': T('emptyState') }, h('span', {}, 'Nothing to see here — yet')))
    } else {
      cursor = bottom
      spinner.hidden = true
    }
    loading = false
  }
  new IntersectionObserver((seen) => {
    if (seen.some((e) => e.isIntersecting)) void more()
  }).observe(sentinel)
  void more()
}

async function userByScreenName(screenName) {
  const body = await graphql('UserByScreenName', { screen_name: screenName, withSafetyModeUserFields: true })
  return body?.data?.user?.result ?? null
}

function accountMissing(column) {
  column.replaceChildren(
    h(
      'div',
      { 'data-testid': T('emptyState') },
      h('h1', {}, "This account doesn't exist"),
      h('p', {}, 'Try searching for another.'),
    ),
  )
}

async function profilePage(column, screenName) {
  column.append(h('div', { role: 'progressbar', 'aria-label': 'Loading' }))
  let user
  try {
    user = await userByScreenName(screenName)
  } catch {
    return somethingWentWrong(column)
  }
  if (!user) return accountMissing(column)
  const core = user.core
  // x.com shows Message whatever the person's DM settings: a closed inbox is a notice in the chat
  const canMessage = user.rest_id !== STATE.viewer.id
  const thread = () => {
    const a = BigInt(user.rest_id)
    const b = BigInt(STATE.viewer.id)
    location.assign(`/i/chat/${a < b ? `${a}-${b}` : `${b}-${a}`}`)
  }
  column.replaceChildren(
    h(
      'div',
      { 'data-testid': T('UserName') },
      h('span', {}, core.name),
      ' ',
      h('span', {}, `@${core.screen_name}`),
    ),
    h('div', { 'data-testid': T('UserDescription'), dir: 'auto' }, user.legacy?.description ?? ''),
    h(
      'a',
      { href: `/${core.screen_name}/followers`, role: 'link' },
      `${user.legacy?.followers_count ?? 0} Followers`,
    ),
    ' ',
    h(
      'a',
      { href: `/${core.screen_name}/following`, role: 'link' },
      `${user.legacy?.friends_count ?? 0} Following`,
    ),
    canMessage
      ? h(
          'button',
          { type: 'button', 'data-testid': T('sendDMFromProfile'), 'aria-label': 'Message', onclick: thread },
          'Message',
        )
      : null,
  )
}

async function listPage(column, screenName, kind) {
  let user
  try {
    user = await userByScreenName(screenName)
  } catch {
    return somethingWentWrong(column)
  }
  if (!user) return accountMissing(column)
  column.append(h('h2', {}, kind === 'followers' ? 'Followers' : 'Following'))
  const holder = h('section', {})
  column.append(holder)
  timeline(holder, (cursor) =>
    graphql(kind === 'followers' ? 'Followers' : 'Following', {
      userId: user.rest_id,
      count: 20,
      includePromotedContent: false,
      ...(cursor ? { cursor } : {}),
    }),
  )
}

function searchPage(column) {
  const params = new URLSearchParams(location.search)
  const rawQuery = params.get('q') ?? ''
  const product = params.get('f') === 'user' ? 'People' : params.get('f') === 'live' ? 'Latest' : 'Top'
  column.append(
    h('input', {
      type: 'search',
      'aria-label': 'Search query',
      'data-testid': T('SearchBox_Search_Input'),
      value: rawQuery,
    }),
  )
  const holder = h('section', {})
  column.append(holder)
  timeline(holder, (cursor) =>
    graphql('SearchTimeline', {
      rawQuery,
      count: 20,
      querySource: 'typed_query',
      product,
      ...(cursor ? { cursor } : {}),
    }),
  )
}

function homePage(column) {
  for (const tweet of STATE.home ?? [])
    column.append(
      h(
        'article',
        { 'data-testid': T('tweet'), role: 'article' },
        h('div', { 'data-testid': T('User-Name') }, h('b', {}, tweet.name), ` @${tweet.screen_name}`),
        h('div', { 'data-testid': T('tweetText'), dir: 'auto' }, tweet.text),
      ),
    )
}

function chatPage(main) {
  main.append(h('div', { 'data-testid': T('xchatEmbedRoute'), class: 'xchat' }))
  document.body.append(h('div', { 'data-testid': T('xchatEmbedOverlays') }))
  document.body.append(h('script', { src: BUILD.chatBundle }))
}

function route() {
  const column = h('div', { 'data-testid': T('primaryColumn') })
  const main = h('main', { role: 'main' })
  root.replaceChildren(sideNav(), main)
  const path = location.pathname
  if (path.startsWith('/i/chat')) return chatPage(main)
  main.append(column)
  if (path === '/home') return homePage(column)
  if (path === '/search') return searchPage(column)
  const [, screenName, tab] = /^\/([A-Za-z0-9_]{1,15})(?:\/(followers|following))?\/?$/.exec(path) ?? []
  if (screenName && tab) return void listPage(column, screenName, tab)
  if (screenName) return void profilePage(column, screenName)
  column.append(h('h1', {}, 'Page not found'))
}

route()
