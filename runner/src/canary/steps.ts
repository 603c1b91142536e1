// The canary's checks after sign-in, each a read an everyday job also makes: the inbox, one known
// conversation, a profile (its followers page), one page of a search. Nothing is ever sent. A step
// passes when the adapter read the page; it fails with the adapter's own error, so a changed page
// fails as LayoutChangedError and becomes a site change like it would in a job.
import type { InboxConversation, PlatformSession, ScrapeRequest } from '../platforms/types.ts'

export type CanaryStepName = 'session' | 'inbox' | 'thread' | 'profile' | 'search'

export interface CanaryInput {
  session: PlatformSession
  /** The chosen conversation (null: the newest one with nothing unread, from the inbox step). */
  threadId: string | null
  /** The profile to open (the account's own when the settings name none). */
  profile: string
  search: string
  /** What the inbox step read, for the thread step. */
  inbox: InboxConversation[] | null
}

/** A step that had nothing to do (no conversation to open): neither passed nor failed. */
export class SkipStep extends Error {
  override name = 'SkipStep'
}

export interface CanaryStep {
  name: string
  label: string
  /** Resolves with a short detail for the panel ("12 conversations"), or throws. */
  run(input: CanaryInput): Promise<string>
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

export const DEFAULT_STEPS: CanaryStep[] = [
  {
    name: 'inbox',
    label: 'Open the inbox',
    async run(input) {
      input.inbox = await input.session.readInbox({ includeRequests: false })
      return plural(input.inbox.length, 'conversation')
    },
  },
  {
    name: 'thread',
    label: 'Open a known thread',
    async run(input) {
      // never one with unread messages: opening it would mark a customer's new message read
      const threadId = input.threadId ?? input.inbox?.find((c) => !c.unread)?.threadId ?? null
      if (!threadId)
        throw new SkipStep('No conversation to open: the inbox has none without unread messages.')
      const messages = await input.session.readThread(threadId)
      return plural(messages.length, 'message')
    },
  },
  {
    name: 'profile',
    label: 'Open a profile',
    async run(input) {
      const page = await input.session.scrape(firstPage(input.session, 'followers', input.profile))
      return `@${input.profile}: ${plural(page.profiles.length, 'follower')} listed`
    },
  },
  {
    name: 'search',
    label: 'One page of a search',
    async run(input) {
      // Instagram has no keyword search for people: its hashtag search is the one the product uses
      const source = input.session.platform === 'x' ? 'keyword' : 'hashtag'
      const value = source === 'hashtag' ? input.search.replace(/^#/, '').replace(/\s+/g, '') : input.search
      const page = await input.session.scrape(firstPage(input.session, source, value))
      return `"${value}": ${plural(page.profiles.length, 'profile')}`
    },
  },
]

/** One page, without Instagram's per-profile enrichment (a dozen extra reads the check does not need). */
function firstPage(
  session: PlatformSession,
  source: ScrapeRequest['source'],
  value: string,
): ScrapeRequest & { enrich?: boolean } {
  return session.platform === 'instagram'
    ? { source, value, cursor: null, enrich: false }
    : { source, value, cursor: null }
}
