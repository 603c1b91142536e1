// A real campaign for the fault tests: sandbox X accounts with pacing limits far above what
// compressed pacing does, one campaign per account, the scheduler driven every second (as pg_cron
// would every minute at real pacing), and the verdict every fault test asks for: the sandbox's
// delivery log has no duplicate, and every lead is sent (one delivery, the logged text), skipped or
// still pending (no delivery): none lost, none sent twice. Built on the runner's test helpers.
import {
  adminDb,
  createCampaign,
  createCustomer,
  createXAccount,
} from '../../../runner/test/helpers/fixtures.ts'
import {
  openProfiles,
  SandboxAdmin,
  sandboxUrl,
  type XSandboxAccount,
} from '../../../runner/test/helpers/sandbox.ts'
import { newXAccount } from '../../../runner/test/helpers/x-session.ts'

export const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
/** Leads in one of these states are still open: due (now or later), or being sent or checked. */
export const OPEN_STATES = ['pending', 'sending', 'uncertain']

export interface CampaignRun {
  userId: string
  sandboxes: XSandboxAccount[]
  accountIds: string[]
  campaignIds: string[]
  leadCount: number
}

/**
 * A customer with `accounts` X accounts, each running a campaign to `leadsPerAccount` open
 * profiles starting at `profileOffset` (tests that run one after another use different people).
 */
export async function startCampaigns(
  accounts: number,
  leadsPerAccount: number,
  profileOffset: number,
): Promise<CampaignRun> {
  const userId = await createCustomer(accounts)
  const people = await openProfiles(x, accounts * leadsPerAccount, profileOffset)
  if (people.length !== accounts * leadsPerAccount) throw new Error('not enough sandbox profiles')
  const run: CampaignRun = {
    userId,
    sandboxes: [],
    accountIds: [],
    campaignIds: [],
    leadCount: people.length,
  }
  for (let i = 0; i < accounts; i++) {
    const sandbox = await newXAccount(x, {
      behaviour: { replyShare: 0, maxSendsPerMinute: 10_000, maxSameText: 100_000, dailyDmLimit: 100_000 },
    })
    const accountId = await createXAccount(userId, sandbox)
    run.sandboxes.push(sandbox)
    run.accountIds.push(accountId)
    run.campaignIds.push(
      await createCampaign(userId, accountId, people.slice(i * leadsPerAccount, (i + 1) * leadsPerAccount), {
        messages: ['Hi {name}, {quick|short} question about {your work|what you do}, @{username}?'],
      }),
    )
  }
  return run
}

/** Calls internal.enqueue_due_work() every second until stopped; errors (a database restart) are retried. */
export function driveScheduler(): () => void {
  const timer = setInterval(() => {
    void adminDb()
      .query('select internal.enqueue_due_work()')
      .catch(() => undefined)
  }, 1_000)
  return () => clearInterval(timer)
}

export async function deliveredCount(run: CampaignRun): Promise<number> {
  let total = 0
  for (const sandbox of run.sandboxes) total += (await x.deliveries(sandbox.username)).length
  return total
}

export async function leadsIn(run: CampaignRun, states: string[]): Promise<number> {
  const { rows } = await adminDb().query<{ n: number }>(
    `select count(*)::int as n from public.campaign_leads where campaign_id = any($1) and state = any($2)`,
    [run.campaignIds, states],
  )
  return rows[0]?.n ?? -1
}

export interface Verdict {
  delivered: number
  duplicates: [string, number][]
  lost: string[]
  states: Record<string, number>
}

/** The delivery log against the leads: duplicates and lost leads (both must be empty). */
export async function verdict(run: CampaignRun): Promise<Verdict> {
  const log = (await Promise.all(run.sandboxes.map((s) => x.deliveries(s.username)))).flat()
  const perRecipient = new Map<string, number>()
  for (const d of log) perRecipient.set(d.recipientUsername, (perRecipient.get(d.recipientUsername) ?? 0) + 1)
  const duplicates = [...perRecipient].filter(([, n]) => n > 1)
  const { rows: leads } = await adminDb().query<{ username: string; state: string; text: string | null }>(
    `select l.username, l.state, d.message_sent as text
       from public.campaign_leads l
       left join public.dm_logs d on d.campaign_lead_id = l.id and d.step = 0 and d.status = 'sent'
      where l.campaign_id = any($1)`,
    [run.campaignIds],
  )
  const byRecipient = new Map(log.map((d) => [d.recipientUsername, d]))
  const lost: string[] = []
  if (leads.length !== run.leadCount) lost.push(`${run.leadCount - leads.length} lead rows missing`)
  const states: Record<string, number> = {}
  for (const lead of leads) {
    states[lead.state] = (states[lead.state] ?? 0) + 1
    const delivery = byRecipient.get(lead.username)
    if (lead.state === 'sent') {
      if (!delivery || delivery.text !== lead.text)
        lost.push(`${lead.username}: sent but not delivered as logged`)
    } else if (delivery) {
      lost.push(`${lead.username}: delivered but recorded ${lead.state}`)
    } else if (lead.state !== 'pending' && lead.state !== 'skipped') {
      lost.push(`${lead.username}: left ${lead.state}`)
    }
  }
  return { delivered: log.length, duplicates, lost, states }
}

export async function accountStatuses(run: CampaignRun) {
  const { rows } = await adminDb().query<{ status: string; flag_reason: string | null }>(
    'select status, flag_reason from public.social_accounts where id = any($1) order by id',
    [run.accountIds],
  )
  return rows
}
