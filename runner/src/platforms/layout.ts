/// <reference lib="dom" />
// "The page is not what the adapter expects": a site change, its own outcome. It is neither a stop
// signal about the account nor page trouble to retry blindly: the job hands it to the fleet-wide
// site-change handling (record, pause the platform action, alert operators) and never blames the
// customer's account. The outline lets an operator see what the page looked like without reading
// anyone's messages: tags, test ids, roles and input types only; no text, names, ids or cookies.
import type { PlatformAction } from '@reachflow/domain'
import type { Page } from 'puppeteer-core'
import type { Platform } from './names.ts'

/** Which kind of work met the changed page (what the fleet pauses); the admin function names the same. */
export type { PlatformAction }

/** One element of a page outline: `div[data-testid=dm-inbox-panel][role=list]`, indented by depth. */
export interface PageOutline {
  /** One line per element, depth shown by two spaces; `#shadow-root` opens a shadow tree. */
  lines: string[]
  /** True when the page had more elements than the outline keeps. */
  truncated: boolean
}

export class LayoutChangedError extends Error {
  constructor(
    readonly platform: Platform,
    readonly action: PlatformAction,
    /** The adapter's step, e.g. "open thread: conversation panel". */
    readonly step: string,
    /** The URL path the page was on (no query string: it can carry search terms). */
    readonly path: string,
    readonly outline: PageOutline,
  ) {
    super(`${platform} page changed at "${step}" (${path})`)
    this.name = 'LayoutChangedError'
  }
}

const MAX_LINES = 4_000

/**
 * The words platforms build their test ids from (split at anything not a letter or digit). A word
 * not on this list may be someone's handle or id and is redacted; a missing word only costs the
 * operator a "#" where a fixed name was.
 */
const TEST_ID_WORDS = [
  // X's pages and X Chat (runner/src/platforms/x, stack/sandbox/x)
  'AccountSwitcher AppTabBar Avatar Back Button Cancel Consent Container Conversation DM DMDrawer',
  'DirectMessage Explore Home Input Link LoginForm Name Next OAuth Profile Search SearchBox SideNav',
  'Timeline User UserAvatar UserCell UserDescription UserName app back bar button caret cellInnerDiv',
  'code composer container conversation dm dmComposerSendButton dmComposerTextInput emptyState form',
  'header inbox input item like list message panel pin primaryColumn reply retweet scroller send',
  'sendDMFromProfile sidebarColumn slot spinner text textarea toast tweet tweetText unlike username',
  'xchatEmbedOverlays xchatEmbedRoute',
  // the checkout pages
  'cancel checkout due error portal return subscription today',
]
  .join(' ')
  .split(' ')

/**
 * The outline's in-page side, as source text: the runner runs under tsx, whose transform wraps
 * named inner functions in a `__name` helper the page does not have (a function passed to
 * page.evaluate failed with "__name is not defined"). A test id keeps only its fixed words: a UUID,
 * and every run of letters and digits that is not one of TEST_ID_WORDS (or a version: v2), becomes "#" (X's rows carry
 * user and message ids, its avatars the handle: `UserAvatar-Container-<handle>`).
 */
const OUTLINE_JS = `function (maxLines, fixedWords) {
  var lines = []
  var truncated = false
  var fixed = new Set(fixedWords)
  function redact(testid) {
    return testid
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '#')
      .replace(/[A-Za-z0-9]+/g, function (word) {
        return fixed.has(word) || /^v[0-9]{1,2}$/.test(word) ? word : '#'
      })
  }
  function describe(el) {
    var line = el.tagName.toLowerCase()
    var testid = el.getAttribute('data-testid')
    if (testid) line += '[data-testid=' + redact(testid) + ']'
    var role = el.getAttribute('role')
    if (role) line += '[role=' + role + ']'
    var type = el instanceof HTMLInputElement ? el.getAttribute('type') : null
    if (type) line += '[type=' + type + ']'
    return line
  }
  function walk(node, depth) {
    for (var child of Array.from(node.children)) {
      if (lines.length >= maxLines) {
        truncated = true
        return
      }
      var tag = child.tagName.toLowerCase()
      if (tag === 'script' || tag === 'style' || tag === 'noscript' || tag === 'template') continue
      lines.push('  '.repeat(depth) + describe(child))
      if (child.shadowRoot) {
        lines.push('  '.repeat(depth + 1) + '#shadow-root')
        walk(child.shadowRoot, depth + 2)
      }
      walk(child, depth + 1)
    }
  }
  if (document.body) walk(document.body, 0)
  return { lines: lines, truncated: truncated }
}`

/**
 * The redacted outline of the page, shadow roots included: tags, test ids (their fixed words only),
 * roles and input types. Other attributes and every text node are left out.
 */
export async function outlinePage(page: Page): Promise<PageOutline> {
  return (await page.evaluate(
    `(${OUTLINE_JS})(${MAX_LINES}, ${JSON.stringify(TEST_ID_WORDS)})`,
  )) as PageOutline
}

/** The page's URL path, without query or fragment. */
export function pagePath(page: Page): string {
  try {
    return new URL(page.url()).pathname
  } catch {
    return ''
  }
}

/** Builds the error from the page as it is now (the outline is best effort: a dead page gives none). */
export async function layoutChanged(
  page: Page,
  platform: Platform,
  action: PlatformAction,
  step: string,
): Promise<LayoutChangedError> {
  const outline = await outlinePage(page).catch(() => ({ lines: [], truncated: false }))
  return new LayoutChangedError(platform, action, step, pagePath(page), outline)
}
