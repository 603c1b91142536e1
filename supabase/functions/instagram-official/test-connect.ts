// For Deno tests only (never imported by a function): a new customer with an official Instagram
// account connected the way a customer does it, through the function and the Meta sandbox's consent.
import assert from 'node:assert/strict'
import { consentInSandbox, sandboxInstagramAccount } from '../_shared/meta-sandbox-test.ts'
import { functionRequest, jsonOf, newCustomer, stackEnv } from '../_shared/test-stack.ts'
import { createOfficialHandler } from './app.ts'
import { defaultDeps } from './deps.ts'

export async function connectedOfficialAccount(tag: string) {
  const handler = createOfficialHandler(defaultDeps(stackEnv()))
  const customer = await newCustomer(tag)
  const ig = await sandboxInstagramAccount()
  const started = await handler(
    functionRequest('instagram-official', '/connect', { method: 'POST', token: customer.token }),
  )
  const { url } = await jsonOf<{ url: string }>(started)
  const back = await consentInSandbox(url, ig.username, ig.password)
  const done = await handler(functionRequest('instagram-official', `/callback${back.search}`))
  assert.equal(done.status, 303)
  const { data } = await customer.db.from('social_accounts').select('id').single()
  return { customer, ig, accountId: data?.id ?? '' }
}
