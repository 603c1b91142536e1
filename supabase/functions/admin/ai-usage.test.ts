// GET /admin/ai-usage: operators see each workspace's AI use today (requests, tokens, refusals,
// failures, every member's together) with its owner and the daily limits; customers are refused.
import assert from 'node:assert/strict'
import { newCustomer, serviceDb, sql } from '../_shared/test-stack.ts'
import { call, handler, newAdmin } from './test-helpers.ts'

interface Usage {
  requestLimit: number
  workspaces: {
    workspaceId: string
    name: string
    ownerEmail: string | null
    requests: number
    tokens: number
    denied: number
    exhausted: boolean
  }[]
}

Deno.test('GET /ai-usage lists a workspace whose members drafted today, all of them together, with the limits; a customer gets 403', async () => {
  const admin = await newAdmin('ai-admin')
  const customer = await newCustomer('ai-user')
  const editor = await newCustomer('ai-user-editor')
  await sql(`insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, 'editor')`, [
    customer.id,
    editor.id,
  ])
  await sql('update public.user_profiles set active_workspace_id = $1 where id = $2', [
    customer.id,
    editor.id,
  ])
  // Both draft as the app does, through the gateway to the deployed api function: this
  // function's tests do not import another function.
  for (const member of [customer, editor]) {
    const drafted = await member.db.functions.invoke('api/ai/draft-messages', {
      body: { goal: 'Book intro calls', offer: 'SEO audits' },
    })
    assert.equal(drafted.error, null)
  }

  const usage = await call<Usage>(handler(), '/ai-usage', { token: admin.token })
  assert.equal(usage.status, 200)
  const row = usage.body.workspaces.find((w) => w.workspaceId === customer.id)
  assert.ok(row, 'the workspace is listed')
  assert.equal(row.ownerEmail, customer.email)
  assert.equal(row.requests, 2, "the editor's draft counts in the owner's workspace")
  assert.ok(row.tokens > 0)
  assert.equal(row.exhausted, false)
  assert.equal(
    usage.body.workspaces.some((w) => w.workspaceId === editor.id),
    false,
    "the editor's own workspace used nothing",
  )
  const { data } = await serviceDb().from('ai_settings').select('requests_per_day').single()
  assert.equal(usage.body.requestLimit, data?.requests_per_day)

  const denied = await call(handler(), '/ai-usage', { token: customer.token })
  assert.equal(denied.status, 403)
})
