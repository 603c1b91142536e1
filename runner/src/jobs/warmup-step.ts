// warmup.step {accountId}: one day's warm-up activity of an account in its first weeks (the
// scheduler queues it once a local day and advances the warm-up phase itself): a short browsing
// session that looks like a person using the app, which also proves the session still works.
// Each clean step raises the trust score a little. Skipped while the platform's session is paused
// after a site change.
import { signIn, stopOnSignal } from '../accounts/sign-in.ts'
import { adjustTrust } from '../accounts/status.ts'
import type { AccountHandle } from '../sessions/manager.ts'
import { type AccountRow, loadAccount } from '../sessions/open.ts'
import { actionPaused, pausedNote } from '../site-change/record.ts'
import { browseLikeAPerson } from '../warmup/browse.ts'
import { type JobContext, pause, RetryLaterError } from './context.ts'
import type { JobData } from './queues.ts'

export interface WarmupResult {
  pages: number
  note?: string
}

export async function warmupStep(ctx: JobContext, data: JobData['warmup.step']): Promise<WarmupResult> {
  const account = await loadAccount(ctx.db, data.accountId)
  if (account?.status !== 'active') return { pages: 0, note: 'The account is not active.' }
  if (account.warmup_phase >= 5) return { pages: 0, note: 'The account is warmed up.' }
  // no browser for an official account: it has no pages to browse (its warm-up cap still applies)
  if (account.connection === 'official')
    return { pages: 0, note: 'Official accounts are not warmed up by browsing.' }
  if (await actionPaused(ctx.db, account.platform, 'session'))
    return { pages: 0, note: pausedNote(account.platform, 'session') }
  const used = await ctx.sessions.use(account.id, ctx.config.accountWaitMs, (handle) =>
    warmUp(ctx, handle, account),
  )
  if (used.status === 'busy') throw new RetryLaterError(`The account is busy (${used.where}).`)
  return used.value
}

async function warmUp(ctx: JobContext, handle: AccountHandle, account: AccountRow): Promise<WarmupResult> {
  const signedIn = await signIn(ctx.db, handle, account)
  if ('note' in signedIn) return { pages: 0, note: signedIn.note }
  // people the customer scraped on this platform: profiles a person in this niche would look at
  const { rows } = await ctx.db.query<{ username: string }>(
    `select l.username from public.scraping_campaign_leads l
       join public.scraping_campaigns s on s.id = l.scraping_campaign_id
      where s.user_id = $1 and s.platform_id = (select platform_id from public.social_accounts where id = $2)
      order by l.collected_at desc limit 20`,
    [account.user_id, account.id],
  )
  const profiles = rows
    .map((r) => r.username)
    .sort(() => ctx.random() - 0.5)
    .slice(0, 1 + Math.floor(ctx.random() * 3))
  let pages: number
  try {
    pages = await browseLikeAPerson(signedIn.session, {
      profiles,
      random: ctx.random,
      pause: (ms) => pause(ms * ctx.config.pacingFactor, ctx.signal),
    })
  } catch (error) {
    const status = await stopOnSignal(ctx.db, handle, account, error)
    return { pages: 0, note: `The account was ${status}.` }
  }
  await adjustTrust(ctx.db, account.id, 0.02)
  await ctx.log.info('warmup', `Warm-up step of @${account.username}: ${pages} pages`, {
    accountId: account.id,
    phase: account.warmup_phase,
  })
  return { pages }
}
