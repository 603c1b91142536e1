// GET /admin/ai-usage: operators see each customer's AI use today (requests, tokens, refusals,
// failures) with the daily limits; customers are refused.
import assert from 'node:assert/strict'
import { newCustomer, serviceDb } from '../_shared/test-stack.ts'
import { call, handler, newAdmin } from './test-helpers.ts'

interface Usage {
  requestLimit: number
  customers: { email: string; requests: number; tokens: number; denied: number; exhausted: boolean }[]
}

Deno.test('GET /ai-usage lists a customer who drafted today, with the limits; a customer gets 403', async () => {
  const admin = await newAdmin('ai-admin')
  const customer = await newCustomer('ai-user')
  // The customer drafts as the app does, through the gateway to the deployed api function: this
  // function's tests do not import another function.
  const drafted = await customer.db.functions.invoke('api/ai/draft-messages', {
    body: { goal: 'Book intro calls', offer: 'SEO audits' },
  })
  assert.equal(drafted.error, null)

  const usage = await call<Usage>(handler(), '/ai-usage', { token: admin.token })
  assert.equal(usage.status, 200)
  const row = usage.body.customers.find((c) => c.email === customer.email)
  assert.ok(row, 'the customer is listed')
  assert.equal(row.requests, 1)
  assert.ok(row.tokens > 0)
  assert.equal(row.exhausted, false)
  const { data } = await serviceDb().from('ai_settings').select('requests_per_day').single()
  assert.equal(usage.body.requestLimit, data?.requests_per_day)

  const denied = await call(handler(), '/ai-usage', { token: customer.token })
  assert.equal(denied.status, 403)
})
