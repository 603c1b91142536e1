// The account limit of product.md §6 through the gateway: parallel creates never exceed the plan, the
// texts of product.md §8 explain why, and a plan bought later raises the limit.
import { describe, expect, it } from 'vitest'
import { customer, givePlan, invoke, serviceClient, xCookies } from './helpers.ts'

const xAccount = (username: string) => ({
  platform: 'twitter',
  username,
  authData: { cookies: xCookies() },
  proxyUrl: null,
})

describe('plan limit', () => {
  it('two parallel creates on a 1-account plan: exactly one succeeds', async () => {
    const starter = await customer('race')
    await givePlan(starter.id, 1, 'active', 'starter')
    const results = await Promise.all([
      invoke(starter.sb, 'api/social-accounts', 'POST', xAccount('race_one')),
      invoke(starter.sb, 'api/social-accounts', 'POST', xAccount('race_two')),
    ])
    expect(results.map((r) => r.status).sort()).toEqual([201, 422])
    expect(results.find((r) => r.status === 422)?.body).toEqual({
      error: 'Account limit reached. You have 1/1 accounts.',
    })
    const { data } = await serviceClient()
      .from('social_accounts')
      .select('username')
      .eq('user_id', starter.id)
    expect(data).toHaveLength(1)
  })

  it('a burst of ten on a 3-account plan: exactly three succeed', async () => {
    const growth = await customer('burst')
    await givePlan(growth.id, 3, 'trialing')
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        invoke(growth.sb, 'api/social-accounts', 'POST', xAccount(`burst_${i}`)),
      ),
    )
    expect(results.filter((r) => r.status === 201)).toHaveLength(3)
    expect(results.filter((r) => r.status === 422)).toHaveLength(7)
    const limit = await growth.sb.rpc('check_account_limit')
    expect(limit.data).toMatchObject({ canAddAccount: false, currentCount: 3, limit: 3 })
  })

  it('free, lapsed and upgraded customers get the texts of product.md §8', async () => {
    const free = await customer('free')
    expect((await invoke(free.sb, 'api/social-accounts', 'POST', xAccount('free_one'))).status).toBe(201)
    expect(await invoke(free.sb, 'api/social-accounts', 'POST', xAccount('free_two'))).toEqual({
      status: 422,
      body: {
        error: 'You are currently limited to 1 social media account. Upgrade your plan to add more accounts.',
      },
    })
    await givePlan(free.id, 1, 'canceled')
    expect((await invoke(free.sb, 'api/social-accounts', 'POST', xAccount('free_two'))).body).toEqual({
      error: 'Subscription is not active',
    })
    await givePlan(free.id, 2)
    expect((await invoke(free.sb, 'api/social-accounts', 'POST', xAccount('free_two'))).status).toBe(201)
    expect((await invoke(free.sb, 'api/social-accounts', 'POST', xAccount('free_three'))).body).toEqual({
      error: 'Account limit reached. You have 2/2 accounts.',
    })
  })

  it('the same account twice is a conflict, not a second slot', async () => {
    const twice = await customer('twice')
    await givePlan(twice.id, 5)
    expect((await invoke(twice.sb, 'api/social-accounts', 'POST', xAccount('same_name'))).status).toBe(201)
    expect(await invoke(twice.sb, 'api/social-accounts', 'POST', xAccount('Same_Name'))).toEqual({
      status: 409,
      body: { error: 'This account is already connected' },
    })
  })
})
