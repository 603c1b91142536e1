import type { ApiResponse } from '@reachflow/domain'
import { supabase } from '@/lib/supabase'
import type { Platform } from './types'

/** GET {api}/social-accounts/platforms; a failure is logged and gives an empty list (product.md §8). */
export async function getPlatforms(): Promise<Platform[]> {
  const { data, error } = await supabase.functions.invoke<
    ApiResponse<'GET /social-accounts/platforms'> | { platforms: Platform[] }
  >('api/social-accounts/platforms', { method: 'GET' })
  if (error || !data) {
    console.error('Error loading platforms', error)
    return []
  }
  return Array.isArray(data) ? data : (data.platforms ?? [])
}
