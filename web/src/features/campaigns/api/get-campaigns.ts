import { supabase } from '@/lib/supabase'
import type { Campaign } from './types'

export const CAMPAIGN_COLUMNS =
  'id, name, status, industry, stage, account_id, scraping_campaign_id, messages_sent, messages_failed, total_attempts, ' +
  'response_count, daily_message_limit, target_count, message_template, sequences, schedule, run_immediately, error_message, ' +
  'ai_personalization, ' +
  'winner_after_sends, winner_chosen_at, created_at, started_at, completed_at, updated_at, platform:platforms(name, display_name), ' +
  'social_account:social_accounts(id, username, status), scraping_campaign:scraping_campaigns(id, name)'

type Figures = Map<string, { leads: number; contacted: number; replied: number }>

export async function getCardFigures(): Promise<Figures> {
  const { data, error } = await supabase.rpc('campaign_card_figures')
  if (error) throw new Error(`Could not load your campaigns: ${error.message}`)
  return new Map(
    (data as { campaign_id: string; leads: number; contacted: number; replied: number }[]).map((r) => [
      r.campaign_id,
      { leads: Number(r.leads), contacted: Number(r.contacted), replied: Number(r.replied) },
    ]),
  )
}

export function withFigures(
  row: Omit<Campaign, 'leads' | 'contacted' | 'replied'>,
  figures: Figures,
): Campaign {
  return { ...row, ...(figures.get(row.id) ?? { leads: 0, contacted: 0, replied: 0 }) }
}

/** The caller's DM campaigns, newest first, with the cards' figures (two requests, under RLS). */
export async function getCampaigns(): Promise<Campaign[]> {
  const [rows, figures] = await Promise.all([
    supabase.from('campaigns').select(CAMPAIGN_COLUMNS).order('created_at', { ascending: false }),
    getCardFigures(),
  ])
  if (rows.error) throw new Error(`Could not load your campaigns: ${rows.error.message}`)
  return (rows.data as unknown as Omit<Campaign, 'leads' | 'contacted' | 'replied'>[]).map((row) =>
    withFigures(row, figures),
  )
}

/** The campaign rows of rpc/dashboard_snapshot: the columns above, figures included, newest first. */
export const campaignsFromSnapshot = (rows: unknown[]): Campaign[] => rows as Campaign[]
