// /ai routes in-process against the test stack and its AI sandbox: the status the client hides or
// shows the features by, drafting through the caller's budget, the budget refusing once a
// customer's day is used up, failures answered with a reason (and counted), and no AI at all
// when AI_BASE_URL is unset. The budget is the active workspace's: its members' use adds up, a
// member's use elsewhere does not count, and only the roles that write campaigns may use it.
import assert from 'node:assert/strict'
import {
  functionRequest,
  jsonOf,
  newCustomer,
  serviceDb,
  sql,
  stackEnv,
  type TestCustomer,
} from '../_shared/test-stack.ts'
import { createApiHandler } from './app.ts'
import { defaultDeps } from './deps.ts'

type Json = Record<string, unknown>
const handle = createApiHandler(defaultDeps(stackEnv({ AI_TIMEOUT_MS: '500', AI_MAX_RETRY_WAIT_MS: '0' })))
const withoutAi = createApiHandler(defaultDeps(stackEnv({ AI_BASE_URL: '' })))

async function call(
  customer: TestCustomer | null,
  method: string,
  path: string,
  body?: unknown,
  handler = handle,
) {
  const response = await handler(functionRequest('api', path, { token: customer?.token, method, body }))
  return { status: response.status, body: await jsonOf<Json & { error?: string }>(response) }
}

async function fault(mode: string, match: string) {
  const response = await fetch(`${Deno.env.get('AI_SANDBOX_URL')}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mode, match }),
  })
  assert.equal(response.status, 201)
  await response.body?.cancel()
}

const today = () => new Date().toISOString().slice(0, 10)

/** The customer's use today in a workspace (by default their personal one, which has their id). */
async function usageRow(customer: TestCustomer, workspaceId = customer.id) {
  const { data } = await serviceDb()
    .from('ai_usage')
    .select('*')
    .eq('workspace_id', workspaceId)
    .eq('user_id', customer.id)
    .eq('day', today())
    .maybeSingle()
  return data
}

/** Makes `member` a member of `owner`'s personal workspace with `role`, working in it. */
async function joinAs(member: TestCustomer, owner: TestCustomer, role: string) {
  await sql(
    `insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, $3::public.workspace_role)`,
    [owner.id, member.id, role],
  )
  await sql('update public.user_profiles set active_workspace_id = $1 where id = $2', [owner.id, member.id])
}

Deno.test('GET /ai/status: available with the sandbox and today’s budget; off with a one-line reason without AI_BASE_URL', async () => {
  const customer = await newCustomer('ai-status')
  const on = await call(customer, 'GET', '/ai/status')
  assert.equal(on.status, 200)
  assert.equal(on.body.available, true)
  assert.equal(on.body.sandbox, true)
  const budget = on.body.budget as Json
  assert.equal(budget.requests, 0)
  assert.equal(budget.exhausted, false)
  assert.ok((budget.requestLimit as number) > 0)

  const off = await call(customer, 'GET', '/ai/status', undefined, withoutAi)
  assert.deepEqual(off.body, {
    available: false,
    reason: 'AI writing is not available: no AI provider is set up for this Reachflow server.',
  })
  const draft = await call(
    customer,
    'POST',
    '/ai/draft-messages',
    { goal: 'Book calls', offer: 'SEO' },
    withoutAi,
  )
  assert.equal(draft.status, 503)
  assert.equal(await call(null, 'GET', '/ai/status').then((r) => r.status), 401)
})

Deno.test('POST /ai/draft-messages drafts from goal and offer and counts the request and tokens', async () => {
  const customer = await newCustomer('ai-draft')
  const draft = await call(customer, 'POST', '/ai/draft-messages', {
    goal: 'Book a 15 minute intro call',
    offer: 'Done-for-you LinkedIn ghostwriting',
    platform: 'twitter',
    variants: 2,
    followUps: 1,
  })
  assert.equal(draft.status, 200, JSON.stringify(draft.body))
  assert.equal((draft.body.messages as string[]).length, 2)
  assert.equal((draft.body.followUps as string[]).length, 1)
  assert.match((draft.body.messages as string[])[0] ?? '', /ghostwriting/i)
  const usage = await usageRow(customer)
  assert.equal(usage?.requests, 1)
  assert.equal(usage?.tokens, draft.body.tokens)

  const invalid = await call(customer, 'POST', '/ai/draft-messages', {
    goal: '',
    offer: 'x'.repeat(600),
    variants: 9,
  })
  assert.equal(invalid.status, 400)
  assert.match(JSON.stringify(invalid.body), /Describe the goal/)
})

Deno.test('a goal the model would take too many tokens for is refused with a reason before the model is called', async () => {
  const customer = await newCustomer('ai-emoji')
  // 400 emoji are 400 characters (within the 500 a goal may have), but far more than 400 letters
  // of what the model reads and quotes back: the drafts came back cut off, a 502 "malformed"
  const refused = await call(customer, 'POST', '/ai/draft-messages', {
    goal: '\u{1F680}'.repeat(400),
    offer: 'SEO audits',
    variants: 3,
  })
  assert.equal(refused.status, 400, JSON.stringify(refused.body))
  assert.equal(refused.body.reason, 'input_too_long')
  assert.match(String(refused.body.error), /^The goal and offer are too long for the AI/)
  assert.equal((await usageRow(customer))?.requests ?? 0, 0, 'the model was not called')

  // 250 emoji fit, and the drafts that quote them come back whole
  const drafted = await call(customer, 'POST', '/ai/draft-messages', {
    goal: '\u{1F680}'.repeat(250),
    offer: 'SEO audits',
    variants: 3,
    followUps: 3,
  })
  assert.equal(drafted.status, 200, JSON.stringify(drafted.body))
  assert.equal((drafted.body.messages as string[]).length, 3)
  assert.ok((drafted.body.messages as string[]).every((m) => m.includes('\u{1F680}'.repeat(250))))
})

Deno.test('the daily budget: a used-up day answers 429 without calling the endpoint, and counts the refusal', async () => {
  const customer = await newCustomer('ai-budget')
  const { data: settings } = await serviceDb().from('ai_settings').select('requests_per_day').single()
  await serviceDb()
    .from('ai_usage')
    .insert({
      workspace_id: customer.id,
      user_id: customer.id,
      day: today(),
      requests: (settings as { requests_per_day: number }).requests_per_day,
    })
  const status = await call(customer, 'GET', '/ai/status')
  assert.equal((status.body.budget as Json).exhausted, true)
  assert.equal(status.body.reason, "Today's AI budget is used up (it resets at 00:00 UTC).")
  const draft = await call(customer, 'POST', '/ai/draft-messages', {
    goal: 'Book calls',
    offer: 'SEO audits',
  })
  assert.equal(draft.status, 429)
  assert.equal(draft.body.reason, 'budget')
  assert.equal((await usageRow(customer))?.denied, 1)
})

Deno.test("the budget is the active workspace's: members' use adds up there, and not in a member's own workspace", async () => {
  const owner = await newCustomer('ai-ws-owner')
  const editor = await newCustomer('ai-ws-editor')
  await joinAs(editor, owner, 'editor')
  const { data: settings } = await serviceDb().from('ai_settings').select('requests_per_day').single()
  const limit = (settings as { requests_per_day: number }).requests_per_day
  // the owner has used all but one request of the workspace's day
  await serviceDb()
    .from('ai_usage')
    .insert({ workspace_id: owner.id, user_id: owner.id, day: today(), requests: limit - 1 })

  const drafted = await call(editor, 'POST', '/ai/draft-messages', {
    goal: 'Book calls',
    offer: 'SEO audits',
  })
  assert.equal(drafted.status, 200, JSON.stringify(drafted.body))
  assert.equal(
    (await usageRow(editor, owner.id))?.requests,
    1,
    "booked to the editor, in the owner's workspace",
  )
  assert.equal(await usageRow(editor), null, "nothing in the editor's own workspace")
  const status = await call(owner, 'GET', '/ai/status')
  assert.equal((status.body.budget as Json).requests, limit, "the owner's status counts the editor's use")
  assert.equal((status.body.budget as Json).exhausted, true)

  const refused = await call(editor, 'POST', '/ai/draft-messages', {
    goal: 'Book calls',
    offer: 'SEO audits',
  })
  assert.equal(refused.status, 429)
  assert.equal(refused.body.error, "Today's AI budget is used up (it resets at 00:00 UTC).")
  const byOwner = await call(owner, 'POST', '/ai/draft-messages', { goal: 'Book calls', offer: 'SEO audits' })
  assert.equal(byOwner.status, 429, 'the editor used the last request of the whole workspace')

  // back in their own workspace, the editor's budget there is untouched
  await sql('update public.user_profiles set active_workspace_id = id where id = $1', [editor.id])
  const own = await call(editor, 'POST', '/ai/draft-messages', { goal: 'Book calls', offer: 'SEO audits' })
  assert.equal(own.status, 200, JSON.stringify(own.body))
  assert.equal((await usageRow(editor))?.requests, 1)
})

Deno.test('an agent or a viewer may not draft or preview with AI (403, the workspace words), and nothing is booked', async () => {
  const owner = await newCustomer('ai-role-owner')
  const source = await leadSource(owner)
  for (const role of ['agent', 'viewer']) {
    const member = await newCustomer(`ai-role-${role}`)
    await joinAs(member, owner, role)
    const draft = await call(member, 'POST', '/ai/draft-messages', {
      goal: 'Book calls',
      offer: 'SEO audits',
    })
    assert.equal(draft.status, 403, role)
    assert.equal(draft.body.error, 'Your role in this workspace does not allow this.')
    const preview = await call(member, 'POST', '/ai/preview-message', {
      template: 'Hi {name}',
      scraping_campaign_id: source,
    })
    assert.equal(preview.status, 403, role)
    assert.equal(preview.body.error, 'Your role in this workspace does not allow this.')
    assert.equal(await usageRow(member, owner.id), null, role)
  }
})

Deno.test('drafting failures answer with the reason, and the failed call is counted', async () => {
  const customer = await newCustomer('ai-fail')
  const cases: [string, number, string][] = [
    ['hang', 504, 'timeout'],
    ['429', 503, 'rate_limited'],
    ['non_json', 502, 'malformed'],
  ]
  for (const [mode, status, reason] of cases) {
    const goal = `Goal ${mode} ${crypto.randomUUID().slice(0, 8)}`
    await fault(mode, goal)
    const draft = await call(customer, 'POST', '/ai/draft-messages', { goal, offer: 'SEO audits' })
    assert.equal(draft.status, status, JSON.stringify(draft.body))
    assert.equal(draft.body.reason, reason)
    assert.ok(typeof draft.body.error === 'string' && draft.body.error.length > 0)
  }
  const usage = await usageRow(customer)
  assert.equal(usage?.failures, 3)
  assert.equal(usage?.requests, 3)
})

Deno.test('an ideal-customer description without an AI provider is refused, not silently ignored', async () => {
  const customer = await newCustomer('ai-noscore')
  const created = await call(
    customer,
    'POST',
    '/scraping-campaigns',
    {
      name: 'Founders',
      account_id: crypto.randomUUID(),
      sources: { type: 'keyword', value: 'saas' },
      ai_ideal_customer: 'SaaS founders',
    },
    withoutAi,
  )
  assert.equal(created.status, 422)
  assert.equal(
    created.body.error,
    'AI writing is not available: no AI provider is set up for this Reachflow server.',
  )
})

/** A lead source of the customer's with a filtered-out lead collected first, then Ann. */
async function leadSource(customer: TestCustomer): Promise<string> {
  const [source] = await sql<{ id: string }>(
    `with account as (
       insert into public.social_accounts (user_id, platform_id, username, status, warmup_phase)
       select $1, p.id, $2, 'active', 5
         from public.platforms p where p.name = 'twitter' returning id)
     insert into public.scraping_campaigns (user_id, name, account_id, sources, target_count)
     select $1, 'Preview source', account.id, '[{"type": "followers", "value": "acme"}]', 10
       from account returning id`,
    [customer.id, `preview_${customer.id.slice(0, 8)}`],
  )
  if (!source) throw new Error('no lead source')
  await sql(
    `insert into public.scraping_campaign_leads
       (scraping_campaign_id, user_id, username, profile_data, is_filtered, source_type, source_value, collected_at)
     values ($1, $2, 'filtered_out', '{"display_name": "Zed"}', true, 'followers', 'acme', '2026-01-01T00:00:00Z'),
            ($1, $2, 'ann_builds', '{"display_name": "Ann Lee", "bio": "Founder @ Acme | building SaaS in public"}',
             false, 'followers', 'acme', '2026-01-02T00:00:00Z')`,
    [source.id, customer.id],
  )
  return source.id
}

Deno.test('POST /ai/preview-message: a real lead of the source, personalised by the code the runner sends with', async () => {
  const customer = await newCustomer('ai-preview')
  const source = await leadSource(customer)
  const body = {
    template: 'Hi {name}, want a free audit of your onboarding emails?',
    scraping_campaign_id: source,
  }
  const preview = await call(customer, 'POST', '/ai/preview-message', body)
  assert.equal(preview.status, 200, JSON.stringify(preview.body))
  assert.deepEqual(preview.body, {
    username: 'ann_builds',
    text: 'Hi Ann, your bio ("Founder @ Acme | building SaaS in public") caught my eye. Want a free audit of your onboarding emails?',
    personalization: 'personalized',
    note: null,
  })
  assert.equal((await usageRow(customer))?.requests, 1, 'the preview is charged to the AI budget')

  // without AI the preview is the template as that lead would get it, and says why
  const plain = await call(customer, 'POST', '/ai/preview-message', body, withoutAi)
  assert.equal(plain.status, 200)
  assert.equal(plain.body.text, 'Hi Ann, want a free audit of your onboarding emails?')
  assert.equal(plain.body.personalization, 'fallback')
  assert.match(String(plain.body.note), /not configured|not set up/i)

  const stranger = await newCustomer('ai-preview-other')
  const other = await call(stranger, 'POST', '/ai/preview-message', body)
  assert.equal(other.status, 404, "another customer's source has no lead to show them")
})
