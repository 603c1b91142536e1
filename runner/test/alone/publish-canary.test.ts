// The check after an operator publishes a pack checks that pack, against the X sandbox in Chromium:
// publishing queues it at once, usually before the runner's next poll of the publications; the run
// reads them first, so the fix an operator published for a changed page passes, resolves the site
// change and lifts the pause, and the run says which version it checked. Alone: publications and
// pauses are fleet-wide.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { testInt } from '../../../stack/src/test-seed.ts'
import { createDb } from '../../src/db.ts'
import { campaignTick } from '../../src/jobs/campaign-tick.ts'
import { platformCanary } from '../../src/jobs/platform-canary.ts'
import { Logger } from '../../src/log.ts'
import { CODE_DEFAULT_FACTS } from '../../src/packs/code-defaults.ts'
import { PlatformPacks } from '../../src/packs/registry.ts'
import { type TestRunner, testRunner } from '../helpers/context.ts'
import {
  adminDb,
  closeAdminDb,
  createCampaign,
  createCustomer,
  createXAccount,
  env,
} from '../helpers/fixtures.ts'
import { editedPack } from '../helpers/packs.ts'
import { quietOtherWork } from '../helpers/process.ts'
import { openProfiles, SandboxAdmin, sandboxUrl } from '../helpers/sandbox.ts'
import { newXAccount } from '../helpers/x-session.ts'

const x = new SandboxAdmin(sandboxUrl('X_BASE_URL'))
const db = createDb(env('RUNNER_DATABASE_URL'), 2)
let runner: TestRunner
let packs: PlatformPacks
let restoreOtherWork: (() => Promise<void>) | undefined
let drilled: string | undefined

async function clearSiteChanges(): Promise<void> {
  const db = adminDb()
  await db.query('delete from public.platform_canary_accounts')
  await db.query('delete from public.platform_action_pauses')
  await db.query(`update public.platform_incidents set status = 'resolved', resolved_at = now(), resolution = 'operator'
                   where status = 'open'`)
}

beforeAll(async () => {
  restoreOtherWork = await quietOtherWork()
  await clearSiteChanges()
  // A runner whose next poll of the publications is an hour away: only the run itself can read them.
  packs = new PlatformPacks({
    db,
    log: new Logger(db, { test: 'publish-canary' }, 'info', false),
    defaults: CODE_DEFAULT_FACTS,
    pollMs: 3_600_000,
  })
  await packs.start()
  runner = await testRunner({}, undefined, packs)
})
afterAll(async () => {
  if (drilled) await x.call('DELETE', `/site-change?account=${encodeURIComponent(drilled)}`)
  await packs.stop()
  await runner.close()
  await clearSiteChanges()
  await restoreOtherWork?.()
  await db.end()
  await closeAdminDb()
})

it('the check after a publication uses the pack just published: the fix passes and lifts the pause', async () => {
  const admin = adminDb()
  const userId = await createCustomer()
  const sandbox = await newXAccount(x, { behaviour: { replyShare: 0 } })
  const accountId = await createXAccount(userId, sandbox)
  const [lead] = await openProfiles(x, 1, 15_600 + testInt('publish-canary people', 300))
  if (!lead) throw new Error('no lead')
  // one conversation, for the canary's thread step
  const campaignId = await createCampaign(userId, accountId, [lead])
  expect((await campaignTick(runner.context(), { campaignId, accountId })).sent).toBe(1)
  await admin.query('insert into public.platform_canary_accounts (account_id) values ($1)', [accountId])

  // X renames the conversation's ready marker for this account; a job met it, the canary met it too,
  // and sending paused.
  drilled = sandbox.username
  await x.call('POST', '/site-change', {
    account: sandbox.username,
    renames: { 'dm-conversation-panel': 'dm-conversation-view' },
  })
  const incident = await admin.query<{ id: string }>(
    `select internal.record_site_change('twitter', 'send', 'open thread: conversation panel', '/i/chat/1-2',
       '{"lines": []}', source, $1, $2, null) as id from unnest(array['job', 'canary']) source`,
    [CODE_DEFAULT_FACTS.twitter.version, accountId],
  )
  expect((await admin.query('select 1 from public.platform_action_pauses')).rowCount).toBe(1)

  // The operator's fix, tried on the canary and published (as the admin tab does).
  const fix = editedPack('twitter', `x-fix-${Date.now()}`, (f) => {
    f.chat.conversationPanel = '[data-testid="dm-conversation-view"]'
  })
  const pack = await admin.query<{ id: string }>(
    `insert into public.platform_packs (platform, version, facts, source) values ('twitter', $1, $2, 'operator') returning id`,
    [fix.version, fix.facts],
  )
  await admin.query(
    `insert into public.platform_canary_runs (platform, trigger, pack_id, status) values ('twitter', 'try', $1, 'passed')`,
    [pack.rows[0]?.id],
  )
  const published = await admin.query<{ outcome: string }>(
    `select public.admin_publish_pack('twitter', $1, null) as outcome`,
    [pack.rows[0]?.id],
  )
  expect(published.rows[0]?.outcome).toBe('published')
  try {
    expect(packs.current('twitter').version).not.toBe(fix.version) // its next poll is an hour away
    const run = await admin.query<{ id: string }>(
      `select id from public.platform_canary_runs where trigger = 'publish' and status = 'queued'
        order by created_at desc limit 1`,
    )
    const result = await platformCanary(runner.context(), { runId: run.rows[0]?.id ?? '' })
    expect(result.steps?.filter((s) => s.status === 'failed')).toEqual([])
    const row = await admin.query<{ status: string; pack_version: string | null }>(
      'select status, pack_version from public.platform_canary_runs where id = $1',
      [run.rows[0]?.id],
    )
    expect(row.rows[0]).toEqual({ status: 'passed', pack_version: fix.version })
    const after = await admin.query<{ status: string; resolution: string }>(
      'select status, resolution from public.platform_incidents where id = $1',
      [incident.rows[0]?.id],
    )
    expect(after.rows[0]).toEqual({ status: 'resolved', resolution: 'canary' })
    expect((await admin.query('select 1 from public.platform_action_pauses')).rowCount).toBe(0)
  } finally {
    await admin.query(`select public.admin_rollback_pack('twitter', null)`)
  }
})
