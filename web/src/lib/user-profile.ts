// The signed-in user's row of `user_profiles` (product.md §3), read by the route guard and the pages.
import type { Tables } from '@reachflow/db'
import { supabase } from './supabase'

export type UserProfile = Pick<
  Tables<'user_profiles'>,
  | 'id'
  | 'full_name'
  | 'business_name'
  | 'avatar_url'
  | 'onboarding_completed'
  | 'post_onboarding'
  | 'subscription_status'
  | 'subscription_plan'
  | 'updated_at'
>

export const USER_PROFILE_COLUMNS =
  'id, full_name, business_name, avatar_url, onboarding_completed, post_onboarding, subscription_status, subscription_plan, updated_at'

/** The profile, or null when there is none (PGRST116 is expected and silent) or the read failed (logged). */
export async function fetchUserProfile(userId: string): Promise<UserProfile | null> {
  const { data, error } = await supabase
    .from('user_profiles')
    .select(USER_PROFILE_COLUMNS)
    .eq('id', userId)
    .single()
  if (error) {
    if (error.code !== 'PGRST116') console.error('Error fetching user profile', error)
    return null
  }
  return data
}

/** Sets one of the two onboarding flags; failures are logged because the flow continues regardless (product.md §4). */
export async function setProfileFlag(
  userId: string,
  flag: 'onboarding_completed' | 'post_onboarding',
  value: boolean,
): Promise<boolean> {
  const { error } = await supabase
    .from('user_profiles')
    .update({
      ...(flag === 'onboarding_completed' ? { onboarding_completed: value } : { post_onboarding: value }),
      updated_at: new Date().toISOString(),
    })
    .eq('id', userId)
  if (error) {
    console.error(`Error updating ${flag}`, error)
    return false
  }
  return true
}
