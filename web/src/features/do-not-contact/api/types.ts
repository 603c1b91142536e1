// The do-not-contact screen's rows, as the database's RPCs return them
// (supabase/migrations/*_do_not_contact_screen.sql).
import type { OptOutWords } from '@shared/opt-out'

export type DncPlatform = 'twitter' | 'instagram'

export const PLATFORM_LABEL: Record<DncPlatform, string> = { twitter: 'Twitter', instagram: 'Instagram' }

export interface DncEntry {
  id: string
  platform: DncPlatform
  target_username: string
  reason: string
  created_at: string
  skipped_leads: number
}

export interface DncPage {
  rows: DncEntry[]
  total: number
}

export interface DncOverview {
  entries: number
  skippedLeads: number
  words: OptOutWords & { custom: boolean }
}

export interface NewEntry {
  platform: DncPlatform
  username: string
  reason?: string
}

export type AddOutcome = 'added' | 'already' | 'duplicate' | 'invalid'

export interface AddResult {
  entry: number
  platform: string
  target_username: string
  outcome: AddOutcome
  error: string | null
}

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
