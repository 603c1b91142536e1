// scrape.run {scrapingCampaignId}: collects the next pages of leads from the campaign's sources
// (followers, following, hashtag, keyword), applies its filters, and stores each page together
// with the cursor it reached in one transaction, so a run that dies resumes exactly where the last
// stored page ended. The target completes the campaign (a trigger, with its notification); sources
// read to their end complete it too. Rate limits move the next run to when the limit resets. While
// scraping on the platform is paused after a site change nothing is read; the cursor waits.

import { signIn, stopOnSignal } from '../accounts/sign-in.ts'
import { inTransaction } from '../db.ts'
import type { TableRow } from '../db-rows.ts'
import { serviceOf } from '../log.ts'
import { type ScrapePage, type ScrapeSource, StopSignalError } from '../platforms/types.ts'
import { refreshAiCounters, scoreRows } from '../scraping/ai-filter.ts'
import { filterReason, profileData, readFilters } from '../scraping/filters.ts'
import type { AccountHandle } from '../sessions/manager.ts'
import { type AccountRow, loadAccount } from '../sessions/open.ts'
import {
  actionState,
  isSiteChange,
  recordSiteChange,
  siteChangeNote,
  stateNote,
} from '../site-change/record.ts'
import { DeferredForLoadError, type JobContext, RetryLaterError } from './context.ts'
import type { JobData } from './queues.ts'

/** Pages one run reads at most; the scheduler queues the next run. */
const PAGES_PER_RUN = 10
/** The pause between runs when there is more to read. */
const NEXT_RUN_MS = 60_000

interface Source {
  type: ScrapeSource
  value: string
}

interface SourceProgress {
  cursor: string | null
  done: boolean
  pages: number
  collected: number
  error?: string
}

interface Progress {
  sources: Record<string, SourceProgress>
  updatedAt?: string
}

type ScrapingCampaign = TableRow<
  'scraping_campaigns',
  | 'id'
  | 'workspace_id'
  | 'user_id'
  | 'account_id'
  | 'name'
  | 'status'
  | 'sources'
  | 'filters'
  | 'progress'
  | 'ai_ideal_customer'
  | 'ai_min_score',
  { sources: Source[]; progress: Partial<Progress> }
>

export interface ScrapeRunResult {
  pages: number
  collected: number
  status: string
  note?: string
}

const keyOf = (source: Source) => `${source.type}:${source.value.trim().toLowerCase()}`

export async function scrapeRun(ctx: JobContext, data: JobData['scrape.run']): Promise<ScrapeRunResult> {
  const campaign = (
    await ctx.db.query<ScrapingCampaign>(
      `select id, workspace_id, user_id, account_id, name, status, sources, filters, progress, ai_ideal_customer, ai_min_score
         from public.scraping_campaigns where id = $1`,
      [data.scrapingCampaignId],
    )
  ).rows[0]
  if (campaign?.status !== 'running' || !campaign.account_id)
    return { pages: 0, collected: 0, status: campaign?.status ?? 'missing', note: 'Not running.' }
  const account = await loadAccount(ctx.db, campaign.account_id)
  if (account?.status !== 'active') {
    // Said on the card: a run that cannot start is not "Next Run In 30 min".
    const note = account
      ? `@${account.username} is ${account.status === 'error' ? 'in error' : account.status}: fix it in Social Accounts, then the scraping resumes.`
      : 'The account was deleted: choose another account and start again.'
    await setError(ctx, campaign.id, note)
    return { pages: 0, collected: 0, status: campaign.status, note }
  }
  if (account.connection === 'official') {
    // the API's lookups are not the scraper's sources; official accounts message, browser ones scrape
    const note = `@${account.username} is connected through the X API, which does not scrape: choose a browser-connected account for scraping.`
    await setError(ctx, campaign.id, note)
    return { pages: 0, collected: 0, status: campaign.status, note }
  }
  // paused fleet-wide, or held for this account after it met a page nobody has confirmed yet
  const note = stateNote(
    await actionState(ctx.db, account.platform, 'scrape', account.id),
    account.platform,
    'scrape',
  )
  if (note) {
    await setError(ctx, campaign.id, note)
    return { pages: 0, collected: 0, status: campaign.status, note }
  }
  try {
    const used = await ctx.sessions.use(account.id, ctx.config.accountWaitMs, (handle) =>
      collect(ctx, handle, account, campaign),
    )
    if (used.status === 'busy') throw new RetryLaterError(`The account is busy (${used.where}).`)
    return used.value
  } catch (error) {
    // a site change: recorded here (the runner's guard then sees it recorded) so the card can say
    // whether scraping waits fleet-wide or only this account does, not that it failed
    if (isSiteChange(error)) {
      await recordSiteChange(ctx.db, ctx.log, error, {
        source: 'job',
        packVersion: ctx.packs.current(account.platform).version,
        accountId: account.id,
      })
      await setError(
        ctx,
        campaign.id,
        await siteChangeNote(ctx.db, account.platform, error.action, account.id),
      )
    } else if (!(error instanceof RetryLaterError) && !(error instanceof DeferredForLoadError))
      await setError(ctx, campaign.id, `The last run failed: ${(error as Error).message}. It is retried.`)
    throw error
  }
}

async function collect(
  ctx: JobContext,
  handle: AccountHandle,
  account: AccountRow,
  campaign: ScrapingCampaign,
): Promise<ScrapeRunResult> {
  const signedIn = await signIn(ctx.db, handle, account)
  if ('note' in signedIn) {
    await setError(ctx, campaign.id, signedIn.note)
    return { pages: 0, collected: 0, status: campaign.status, note: signedIn.note }
  }
  const session = signedIn.session
  const filters = readFilters(campaign.filters)
  const progress: Progress = { sources: { ...(campaign.progress.sources ?? {}) } }
  const result: ScrapeRunResult = { pages: 0, collected: 0, status: 'running' }
  let nextRunMs = NEXT_RUN_MS

  const sources = campaign.sources.map((source) => {
    const key = keyOf(source)
    const state = progress.sources[key] ?? { cursor: null, done: false, pages: 0, collected: 0 }
    progress.sources[key] = state
    return { source, state }
  })
  // one page of each unfinished source in turn, so every source contributes from the first run
  let stopped = false
  while (!stopped && result.status === 'running') {
    const unfinished = sources.filter((s) => !s.state.done)
    if (unfinished.length === 0) break
    for (const { source, state } of unfinished) {
      if (
        result.pages >= PAGES_PER_RUN ||
        result.status !== 'running' ||
        ctx.signal.aborted ||
        !handle.lease.valid
      ) {
        stopped = true
        break
      }
      let page: ScrapePage
      try {
        page = await session.scrape({ source: source.type, value: source.value, cursor: state.cursor })
      } catch (error) {
        if (error instanceof StopSignalError && error.signal.kind === 'rate_limit') {
          // listing limits are per endpoint and reset on their own: wait for the reset, no pause
          nextRunMs = Math.max(NEXT_RUN_MS, Date.parse(error.signal.resetAt ?? '') - Date.now() || 900_000)
          result.note = `Rate limited until ${error.signal.resetAt ?? 'later'}.`
          stopped = true
          break
        }
        if (isSiteChange(error)) throw error
        if (error instanceof StopSignalError) {
          const status = await stopOnSignal(ctx.db, handle, account, error)
          await setError(ctx, campaign.id, `The account was ${status}: ${error.signal.message}`)
          return { ...result, status: 'running', note: `The account was ${status}.` }
        }
        if (/not supported|has no user|is private/i.test((error as Error).message)) {
          // a source that can never be read is done (the campaign shows why), the others go on
          state.done = true
          state.error = (error as Error).message
          continue
        }
        throw error
      }
      state.pages++
      state.cursor = page.nextCursor
      state.done = page.nextCursor === null
      const stored = await storePage(ctx, campaign, source, page, filters, progress)
      state.collected += stored.inserted
      result.pages++
      result.collected += stored.inserted
      result.status = stored.status
      if (page.rateLimit && page.rateLimit.remaining <= 0) {
        nextRunMs = Math.max(NEXT_RUN_MS, Date.parse(page.rateLimit.resetAt) - Date.now())
        stopped = true
        break
      }
    }
  }
  await saveProgress(ctx, campaign.id, progress)
  if (result.status === 'running' && campaign.sources.every((s) => progress.sources[keyOf(s)]?.done)) {
    result.status = await completeExhausted(ctx, campaign)
  } else if (result.status === 'running') {
    await ctx.db.query(
      `update public.scraping_campaigns set next_run_at = internal.now() + make_interval(secs => $2::float8 / 1000)
        where id = $1 and status = 'running'`,
      [campaign.id, nextRunMs],
    )
  }
  await ctx.log.info(
    serviceOf(account.platform),
    `Scraping "${campaign.name}": ${result.collected} new profiles`,
    {
      scrapingCampaignId: campaign.id,
      pages: result.pages,
      status: result.status,
    },
  )
  return result
}

/** Stores a page's profiles and the progress in one transaction; returns the campaign's status after. */
async function storePage(
  ctx: JobContext,
  campaign: ScrapingCampaign,
  source: Source,
  page: ScrapePage,
  filters: ReturnType<typeof readFilters>,
  progress: Progress,
): Promise<{ inserted: number; status: string }> {
  let rows = page.profiles
    .filter((p) => p.username)
    .map((p) => ({
      username: p.username,
      profile_data: profileData(p),
      is_filtered: filterReason(p, filters) !== null,
      filter_reason: filterReason(p, filters),
    }))
  const idealCustomer = campaign.ai_ideal_customer?.trim()
  if (idealCustomer) {
    // scored before the transaction (AI calls take seconds); leads already stored are not scored again
    const { rows: known } = await ctx.db.query<{ username: string }>(
      `select lower(username) as username from public.scraping_campaign_leads
        where scraping_campaign_id = $1 and lower(username) = any($2)`,
      [campaign.id, rows.map((r) => r.username.replace(/^@/, '').trim().toLowerCase())],
    )
    rows = await scoreRows(
      ctx.db,
      ctx.config.ai,
      { workspaceId: campaign.workspace_id, userId: campaign.user_id },
      { idealCustomer, minScore: campaign.ai_min_score },
      rows,
      new Set(known.map((k) => k.username)),
    )
  }
  return inTransaction(ctx.db, async (client) => {
    // The target is a ceiling: with the campaign row locked (one writer at a time), only as many
    // new valid profiles as it still lacks are stored, in page order; filtered ones that came
    // before the last stored valid one are kept for their reasons. Profiles already collected and
    // repeats within the page do not count.
    const inserted = await client.query(
      `with target as (
         select greatest(c.target_count - c.leads_collected, 0) as remaining
           from public.scraping_campaigns c where c.id = $1 for update
       ), incoming as (
         select distinct on (lower(ltrim(btrim(r.username), '@')))
                r.username, r.profile_data, r.is_filtered, r.filter_reason, r.ord
           from rows from (
                  jsonb_to_recordset($2::jsonb)
                    as (username text, profile_data jsonb, is_filtered boolean, filter_reason text)
                ) with ordinality as r (username, profile_data, is_filtered, filter_reason, ord)
          order by lower(ltrim(btrim(r.username), '@')), r.ord
       ), fresh as (
         select i.*, count(*) filter (where not i.is_filtered) over (order by i.ord) as valid_so_far
           from incoming i
          where not exists (
            select 1 from public.scraping_campaign_leads l
             where l.scraping_campaign_id = $1 and lower(l.username) = lower(ltrim(btrim(i.username), '@')))
       )
       insert into public.scraping_campaign_leads
         (scraping_campaign_id, username, profile_data, is_filtered, filter_reason, source_type, source_value, collected_at)
       select $1, f.username, f.profile_data, f.is_filtered, f.filter_reason, $3, $4, internal.now()
         from fresh f, target t
        where (f.is_filtered and f.valid_so_far < t.remaining)
           or (not f.is_filtered and f.valid_so_far <= t.remaining)
        order by f.ord
       on conflict do nothing`,
      [campaign.id, JSON.stringify(rows), source.type, source.value],
    )
    if (idealCustomer) await refreshAiCounters(client, campaign.id)
    const { rows: after } = await client.query<{ status: string }>(
      `update public.scraping_campaigns set progress = $2, last_run_at = internal.now(), error_message = null
        where id = $1 returning status`,
      [campaign.id, { ...progress, updatedAt: new Date().toISOString() }],
    )
    return { inserted: inserted.rowCount ?? 0, status: after[0]?.status ?? 'missing' }
  })
}

async function saveProgress(ctx: JobContext, campaignId: string, progress: Progress): Promise<void> {
  await ctx.db.query('update public.scraping_campaigns set progress = $2 where id = $1', [
    campaignId,
    { ...progress, updatedAt: new Date().toISOString() },
  ])
}

async function setError(ctx: JobContext, campaignId: string, message: string): Promise<void> {
  await ctx.db.query('update public.scraping_campaigns set error_message = left($2, 1000) where id = $1', [
    campaignId,
    message,
  ])
}

/** Every source read to its end before the target: the campaign is complete with what it found. */
async function completeExhausted(ctx: JobContext, campaign: ScrapingCampaign): Promise<string> {
  const { rows } = await ctx.db.query<{ leads_collected: number }>(
    `update public.scraping_campaigns set status = 'completed'
      where id = $1 and status = 'running' returning leads_collected`,
    [campaign.id],
  )
  const done = rows[0]
  if (!done) return 'running'
  // in the campaign's workspace, whichever one its creator is working in now
  await ctx.db.query(
    `insert into public.notifications (workspace_id, user_id, type, title, message, metadata)
     values ($1, $2, 'scraping_completed', 'Scraping campaign completed', $3, $4)`,
    [
      campaign.workspace_id,
      campaign.user_id,
      `"${campaign.name}" collected ${done.leads_collected} valid leads; its sources have no more profiles.`,
      { scrapingCampaignId: campaign.id },
    ],
  )
  return 'completed'
}
