import { type Campaign, scheduleSchema, sequencesSchema } from '@/lib/database/campaigns'
import { parseJson } from '@/lib/database/parse-json'
import { supabase } from '@/lib/supabase'

export const CAMPAIGN_COLUMNS = `id, name, status, industry, stage, account_id, scraping_campaign_id, messages_sent,
  messages_failed, total_attempts, response_count, daily_message_limit, target_count, message_template, sequences,
  schedule, run_immediately, error_message, ai_personalization, winner_after_sends, winner_chosen_at, created_at,
  started_at, completed_at, updated_at, platform:platforms(name, display_name),
  social_account:social_accounts(id, username, status), scraping_campaign:scraping_campaigns(id, name)`

type Figures = Map<string, { leads: number; contacted: number; replied: number }>

export async function getCardFigures(): Promise<Figures> {
  const { data, error } = await supabase.rpc('campaign_card_figures')
  if (error) throw new Error(`Could not load your campaigns: ${error.message}`)
  return new Map(
    data.map((r) => [r.campaign_id, { leads: r.leads, contacted: r.contacted, replied: r.replied }]),
  )
}

type CampaignRow = Omit<Campaign, 'sequences' | 'schedule' | 'leads' | 'contacted' | 'replied'> & {
  sequences: unknown
  schedule: unknown
}

/** A campaigns row with its jsonb read as the database keeps it, and its card figures. */
export function withFigures(row: CampaignRow, figures: Figures): Campaign {
  return {
    ...row,
    sequences: parseJson(sequencesSchema, row.sequences, `Campaign ${row.name}'s messages`),
    schedule: parseJson(scheduleSchema, row.schedule, `Campaign ${row.name}'s schedule`),
    ...(figures.get(row.id) ?? { leads: 0, contacted: 0, replied: 0 }),
  }
}

/** The caller's DM campaigns, newest first, with the cards' figures (two requests, under RLS). */
export async function getCampaigns(): Promise<Campaign[]> {
  const [rows, figures] = await Promise.all([
    supabase.from('campaigns').select(CAMPAIGN_COLUMNS).order('created_at', { ascending: false }),
    getCardFigures(),
  ])
  if (rows.error) throw new Error(`Could not load your campaigns: ${rows.error.message}`)
  return rows.data.map((row) => withFigures(row, figures))
}
