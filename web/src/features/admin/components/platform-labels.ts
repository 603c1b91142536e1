import type { PlatformAction } from '@reachflow/domain'

/** A paused platform action as operators read it (session: sign-in, so everything on the platform). */
export const ACTION_LABELS: Record<PlatformAction, string> = {
  send: 'Sending',
  inbox: 'Reading replies',
  scrape: 'Lead scraping',
  session: 'Sign-in (everything)',
}
