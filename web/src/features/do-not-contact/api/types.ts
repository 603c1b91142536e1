// The do-not-contact screen's rows, as the database's RPCs return them
// (supabase/migrations/*_do_not_contact_screen.sql).
import type { RpcResult } from '@reachflow/db'

export type { DncOverview } from '@/lib/database/do-not-contact'

export type DncPlatform = 'twitter' | 'instagram'

export const PLATFORM_LABEL: Record<string, string> = { twitter: 'Twitter', instagram: 'Instagram' }

export type DncEntry = Omit<RpcResult<'do_not_contact_entries'>[number], 'total'>

export interface DncPage {
  rows: DncEntry[]
  total: number
}

export interface NewEntry {
  platform: DncPlatform
  username: string
  reason?: string
}

/** One entry's outcome: added, already (on the list), duplicate (earlier in the same request), invalid. */
export type AddResult = RpcResult<'add_do_not_contact'>[number]

/** What the list shows for the stored reason ('manual' is someone added by hand). */
export function reasonText(reason: string): string {
  return reason === 'manual' ? 'Added by you' : reason
}

export const dncKeys = {
  all: ['do-not-contact'] as const,
  overview: ['do-not-contact', 'overview'] as const,
  page: (search: string, platform: string, page: number) =>
    ['do-not-contact', 'page', search, platform, page] as const,
}
