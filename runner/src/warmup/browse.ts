/// <reference lib="dom" />
// A warm-up session: what a person does when they open the app without messaging anyone. The
// home feed, a few profiles, the inbox, with pauses between. Paths come from each session's platform
// facts; the pauses scale with the runner's pacing factor.
import type { Page } from 'puppeteer-core'
import type { InstagramSession } from '../platforms/instagram/session.ts'
import type { PlatformSession } from '../platforms/types.ts'
import type { XSession } from '../platforms/x/session.ts'

export interface BrowseOptions {
  /** Profiles to look at (usernames). */
  profiles: string[]
  /** Waits ms (scaled and abortable by the caller); false when the step must stop. */
  pause: (ms: number) => Promise<boolean>
  random: () => number
}

type Browsable = Pick<XSession | InstagramSession, 'run' | 'goto' | 'assertSignedIn'> & {
  path(name: 'home' | 'profile', values?: Record<string, string>): string
}

/** Visits home and the profiles, then reads the inbox; returns the pages seen. */
export async function browseLikeAPerson(session: PlatformSession, options: BrowseOptions): Promise<number> {
  const browsable = session as unknown as Browsable
  const visit = (path: string) =>
    browsable.run('warm-up visit', 60_000, async (page: Page) => {
      await browsable.goto(page, path)
      browsable.assertSignedIn(page)
      await page.evaluate(() => window.scrollBy(0, 400 + Math.random() * 800)).catch(() => undefined)
    })
  const linger = () => options.pause(3_000 + options.random() * 9_000)
  let seen = 0
  await visit(browsable.path('home'))
  seen++
  for (const username of options.profiles) {
    if (!(await linger())) return seen
    await visit(browsable.path('profile', { username }))
    seen++
  }
  if (!(await linger())) return seen
  await session.readInbox({ includeRequests: true })
  return seen + 1
}
