// For the Platform health Deno tests only: a customer's active account chosen for the canary, and
// the platform's canary state (chosen accounts, runs, pauses, incidents) cleared around a test.
import { givePlan, newCustomer, serviceDb, sql } from '../_shared/test-stack.ts'

export async function newAccount(platform: 'twitter' | 'instagram', status = 'active'): Promise<string> {
  const owner = await newCustomer('canary-owner')
  await givePlan(owner, 5)
  const { data: found, error: missing } = await serviceDb()
    .from('platforms')
    .select('id')
    .eq('name', platform)
    .single()
  if (!found) throw missing
  const { data, error } = await serviceDb()
    .from('social_accounts')
    .insert({
      user_id: owner.id,
      platform_id: found.id,
      username: `canary_${crypto.randomUUID().slice(0, 8)}`,
      status,
      warmup_phase: 5,
    })
    .select('id')
    .single()
  if (error || !data) throw error ?? new Error('account not created')
  return data.id
}

export async function newCanaryAccount(platform: 'twitter' | 'instagram'): Promise<string> {
  const id = await newAccount(platform)
  await sql('insert into public.platform_canary_accounts (account_id) values ($1)', [id])
  return id
}

export async function removeCanaryState(platform: 'twitter' | 'instagram'): Promise<void> {
  await sql('delete from public.platform_canary_accounts where platform = $1', [platform])
  await sql('delete from public.platform_canary_runs where platform = $1', [platform])
  await sql('delete from public.platform_action_pauses where platform = $1', [platform])
  await sql(
    `update public.platform_incidents set status = 'resolved', resolved_at = now(), resolution = 'operator'
              where platform = $1 and status = 'open'`,
    [platform],
  )
}
