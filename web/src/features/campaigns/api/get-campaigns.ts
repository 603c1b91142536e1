import { type CampaignFigures, EMPTY_CAMPAIGN_FIGURES } from '@reachflow/domain'
import {
  type Campaign,
  campaignFiguresSchema,
  scheduleSchema,
  sequencesSchema,
} from '@/lib/database/campaigns'
import { parseJson } from '@/lib/database/parse-json'
import { supabase } from '@/lib/supabase'

export const CAMPAIGN_COLUMNS = `id, name, status, industry, stage, account_id, scraping_campaign_id, messages_sent,
  messages_failed, total_attempts, response_count, daily_message_limit, target_count, message_template, sequences,
  schedule, run_immediately, error_message, ai_personalization, winner_after_sends, winner_chosen_at, created_at,
  started_at, completed_at, updated_at, platform:platforms(name, display_name),
  social_account:social_accounts(id, username, status), scraping_campaign:scraping_campaigns(id, name)`

type Figures = Map<string, CampaignFigures>

/** Every campaign's figures, or one campaign's (rpc/campaign_figures, under RLS). */
export async function getCampaignFigures(campaignId?: string): Promise<Figures> {
  const { data, error } = await supabase.rpc(
    'campaign_figures',
    campaignId ? { p_campaign_id: campaignId } : {},
  )
  if (error) throw new Error(`Could not load your campaigns: ${error.message}`)
  return new Map(
    data.map(({ campaign_id, ...figures }) => [campaign_id, campaignFiguresSchema.parse(figures)]),
  )
}

type CampaignRow = Omit<Campaign, 'sequences' | 'schedule' | 'figures'> & {
  sequences: unknown
  schedule: unknown
}

/** A campaigns row with its jsonb read as the database keeps it, and its figures. */
export function withFigures(row: CampaignRow, figures: Figures): Campaign {
  return {
    ...row,
    sequences: parseJson(sequencesSchema, row.sequences, `Campaign ${row.name}'s messages`),
    schedule: parseJson(scheduleSchema, row.schedule, `Campaign ${row.name}'s schedule`),
    figures: figures.get(row.id) ?? EMPTY_CAMPAIGN_FIGURES,
  }
}

/** The caller's DM campaigns, newest first, with the cards' figures (two requests, under RLS). */
export async function getCampaigns(): Promise<Campaign[]> {
  const [rows, figures] = await Promise.all([
    supabase.from('campaigns').select(CAMPAIGN_COLUMNS).order('created_at', { ascending: false }),
    getCampaignFigures(),
  ])
  if (rows.error) throw new Error(`Could not load your campaigns: ${rows.error.message}`)
  return rows.data.map((row) => withFigures(row, figures))
}
