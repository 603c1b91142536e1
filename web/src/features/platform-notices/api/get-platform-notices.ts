import { supabase } from '@/lib/supabase'

/** A platform action paused after a site change, on a platform the customer has an account on. */
export interface PlatformNotice {
  platform: string
  platformLabel: string
  action: string
  pausedSince: string
  title: string
  message: string
}

export async function getPlatformNotices(): Promise<PlatformNotice[]> {
  const { data, error } = await supabase.rpc('platform_notices')
  if (error) throw new Error(`Could not load platform notices: ${error.message}`)
  return data.map((row) => ({
    platform: row.platform,
    platformLabel: row.platform_label,
    action: row.action,
    pausedSince: row.paused_since,
    title: row.title,
    message: row.message,
  }))
}
