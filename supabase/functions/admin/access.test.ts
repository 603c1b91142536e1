// Who reaches the admin function: every route answers 401 without a session or with a bad token,
// 403 with the product's text for a customer (even one who claims admin in user_metadata), and an
// admin gets the product's shapes.
import assert from 'node:assert/strict'
import { newCustomer, serviceDb } from '../_shared/test-stack.ts'
import { call, handler, newAdmin } from './test-helpers.ts'

const ROUTES: [string, string][] = [
  ['GET', '/stats'],
  ['GET', '/recent-activity'],
  ['GET', '/processes'],
  ['GET', '/system-info'],
  ['GET', '/logs?level=&service=&limit=100'],
  ['POST', '/logs/clear'],
  ['GET', '/queues'],
  ['GET', '/queue-stats'],
  ['POST', '/queues/scrape.run/pause'],
  ['POST', '/queues/scrape.run/resume'],
  ['GET', '/retries'],
  ['GET', '/retry-stats'],
  ['POST', '/retries/00000000-0000-4000-8000-000000000000/retry'],
  ['DELETE', '/retries/00000000-0000-4000-8000-000000000000'],
  ['GET', '/users'],
  ['GET', '/campaigns'],
  ['GET', '/social-accounts'],
  ['POST', '/processes/runner-x/restart'],
  ['POST', '/processes/runner-x/kill'],
  ['GET', '/hosts'],
  ['GET', '/queues/scrape.run'],
  ['GET', '/users/00000000-0000-4000-8000-000000000000'],
  ['GET', '/campaigns/00000000-0000-4000-8000-000000000000'],
  ['GET', '/social-accounts/00000000-0000-4000-8000-000000000000'],
  ['POST', '/social-accounts/00000000-0000-4000-8000-000000000000/pause'],
  ['POST', '/social-accounts/00000000-0000-4000-8000-000000000000/resume'],
]

Deno.test('every admin route: 401 without a token or with a bad one, 403 for a customer', async () => {
  const handle = handler()
  const customer = await newCustomer('not-admin')
  // user_metadata is the customer's own to write: claiming a role there must change nothing.
  await customer.db.auth.updateUser({ data: { role: 'admin' } })
  for (const [method, path] of ROUTES) {
    const anonymous = await call(handle, path, { method })
    assert.equal(anonymous.status, 401, `${method} ${path} without a token`)
    const forged = await call(handle, path, { method, token: 'not-a-jwt' })
    assert.equal(forged.status, 401, `${method} ${path} with a bad token`)
    const refused = await call(handle, path, { method, token: customer.token })
    assert.equal(refused.status, 403, `${method} ${path} as a customer`)
    assert.deepEqual(refused.body, { error: 'Access denied - admin privileges required' })
  }
})

Deno.test('the overview: stats and recent activity in the documented shapes', async () => {
  const handle = handler()
  const admin = await newAdmin()
  const stats = await call<Record<string, Record<string, number>>>(handle, '/stats', { token: admin.token })
  assert.equal(stats.status, 200)
  assert.deepEqual(Object.keys(stats.body).sort(), ['accounts', 'campaigns', 'system', 'users'])
  assert.deepEqual(Object.keys(stats.body.users ?? {}).sort(), ['active', 'paid', 'total', 'trial'])
  assert.deepEqual(Object.keys(stats.body.campaigns ?? {}).sort(), ['active', 'completed', 'paused', 'total'])
  assert.deepEqual(Object.keys(stats.body.accounts ?? {}).sort(), ['flagged', 'total', 'verified', 'warming'])
  assert.deepEqual(Object.keys(stats.body.system ?? {}).sort(), ['activeWorkers', 'errorRate', 'uptime'])
  for (const group of Object.values(stats.body))
    for (const value of Object.values(group)) assert.equal(typeof value, 'number')
  // The admin just signed up: counted as a user, and active.
  assert.ok((stats.body.users?.total ?? 0) >= 1 && (stats.body.users?.active ?? 0) >= 1)

  const activity = await call<Record<string, string>[]>(handle, '/recent-activity', { token: admin.token })
  assert.equal(activity.status, 200)
  assert.ok(activity.body.length >= 1 && activity.body.length <= 5, 'five at most by default')
  assert.deepEqual(Object.keys(activity.body[0] ?? {}).sort(), [
    'description',
    'id',
    'status',
    'timestamp',
    'type',
  ])
  const longer = await call<unknown[]>(handle, '/recent-activity?limit=50', { token: admin.token })
  assert.ok(
    longer.body.some(
      (a) => (a as { description: string }).description === `New user signed up: ${admin.email}`,
    ),
    'a sign-up is activity',
  )
  const bad = await call(handle, '/recent-activity?limit=5000', { token: admin.token })
  assert.equal(bad.status, 400)
  assert.equal(bad.body.error, 'limit must be at most 50')
})

Deno.test('users, campaigns and accounts: the documented shapes; unknown ids are 404 with a clear text', async () => {
  const handle = handler()
  const admin = await newAdmin()
  const users = await call<Record<string, unknown>[]>(handle, '/users', { token: admin.token })
  assert.equal(users.status, 200)
  const me = users.body.find((u) => u.email === admin.email)
  assert.deepEqual(me, {
    id: admin.id,
    email: admin.email,
    subscription_status: 'none',
    account_count: 0,
    campaign_count: 0,
    status: 'active',
  })
  const detail = await call(handle, `/users/${admin.id}`, { token: admin.token })
  assert.equal(detail.status, 200)
  assert.equal(detail.body.email, admin.email)
  assert.equal(detail.body.isAdmin, true)

  for (const [path, message] of [
    ['/users/00000000-0000-4000-8000-000000000000', 'User not found'],
    ['/campaigns/not-a-uuid', 'Campaign not found'],
    ['/social-accounts/00000000-0000-4000-8000-000000000000', 'Account not found'],
    ['/queues/no.such.queue', 'Queue not found'],
  ]) {
    const missing = await call(handle, path as string, { token: admin.token })
    assert.equal(missing.status, 404, path)
    assert.equal(missing.body.error, message)
  }

  const { data: campaign } = await serviceDb().from('campaigns').select('id').limit(1).maybeSingle()
  const campaigns = await call<Record<string, unknown>[]>(handle, '/campaigns', { token: admin.token })
  assert.equal(campaigns.status, 200)
  for (const row of campaigns.body)
    assert.deepEqual(Object.keys(row).sort(), [
      'contacted',
      'id',
      'messages_sent',
      'name',
      'response_count',
      'started_at',
      'status',
      'target_count',
      'user_email',
    ])
  if (campaign) {
    const monitor = await call<{ leads: Record<string, number>; recentMessages: unknown[] }>(
      handle,
      `/campaigns/${campaign.id}`,
      { token: admin.token },
    )
    assert.equal(monitor.status, 200)
    assert.equal(typeof monitor.body.leads.total, 'number')
    assert.ok(Array.isArray(monitor.body.recentMessages))
  }
  const accounts = await call<Record<string, unknown>[]>(handle, '/social-accounts', { token: admin.token })
  assert.equal(accounts.status, 200)
  for (const row of accounts.body)
    assert.deepEqual(Object.keys(row).sort(), [
      'id',
      'last_login',
      'platform_name',
      'status',
      'trust_score',
      'user_email',
      'username',
      'warmup_phase',
    ])
})

Deno.test('unknown routes are 404 and wrong methods 405, before any data is touched', async () => {
  const handle = handler()
  const admin = await newAdmin()
  assert.equal((await call(handle, '/nothing-here', { token: admin.token })).status, 404)
  const wrong = await call(handle, '/stats', { token: admin.token, method: 'DELETE' })
  assert.equal(wrong.status, 405)
})
