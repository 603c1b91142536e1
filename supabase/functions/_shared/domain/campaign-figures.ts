// A DM campaign's figures: their names and one-line definitions, the same everywhere they show (the
// campaign card, the campaign's details, the dashboard). public.campaign_figures in
// supabase/schemas/40_campaigns.sql computes them; this file says what each one means and how a
// rate with nothing to divide by reads.

/** One campaign's figures, as public.campaign_figures returns them (rates in percent, one decimal). */
export interface CampaignFigures {
  target: number
  not_deliverable: number
  eligible: number
  contacted: number
  replied: number
  delivered: number
  not_delivered: number
  unconfirmed: number
  /** Null while no message has a known outcome. */
  delivery_rate: number | null
  /** Null while no lead is eligible. */
  progress: number | null
  /** Null while nothing was delivered. */
  reply_rate: number | null
}

export type CampaignFigureName = keyof CampaignFigures

/** What each figure counts, in one line (shown as the figure's description on the screens). */
export const CAMPAIGN_FIGURE_DEFINITIONS: Record<CampaignFigureName, string> = {
  target: 'Every lead the campaign took from its source.',
  not_deliverable:
    'Leads skipped before anything was sent: the platform refused them (closed inbox, verified senders only, cannot be messaged), do-not-contact, or opted out.',
  eligible: 'Leads the campaign will message or has messaged: its target minus those not deliverable.',
  contacted: 'Eligible leads sent at least one message.',
  replied: 'Leads who replied.',
  delivered: 'Messages the platform confirmed sent, follow-ups included.',
  not_delivered: 'Messages that did not go out (failed), not counting a lead the platform refused.',
  unconfirmed: 'Messages sent whose delivery is still being checked.',
  delivery_rate: 'Delivered of the messages whose outcome is known: delivered / (delivered + not delivered).',
  progress: 'Contacted of the eligible leads.',
  reply_rate: 'Replied per message delivered.',
}

export const EMPTY_CAMPAIGN_FIGURES: CampaignFigures = {
  target: 0,
  not_deliverable: 0,
  eligible: 0,
  contacted: 0,
  replied: 0,
  delivered: 0,
  not_delivered: 0,
  unconfirmed: 0,
  delivery_rate: null,
  progress: null,
  reply_rate: null,
}

/** A rate as the screens show it: "—" while there is nothing to divide by, never a made-up 0 %. */
export function formatRate(rate: number | null | undefined, digits = 0): string {
  if (rate === null || rate === undefined) return '—'
  const factor = 10 ** digits
  return `${(Math.round(rate * factor) / factor).toFixed(digits)}%`
}
