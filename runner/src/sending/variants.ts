// Which opening message (variant A, B, ...) a lead's first DM uses, and the record of it. Until a
// winner is chosen the variants are kept balanced: the one with the fewest sends so far goes next,
// ties broken by the (seedable) random source. With "use the winner after N sends per variant" on,
// once every variant has N sends and one replies significantly more often, only that one is sent.
// A variant is stored by its text (message_variants), so editing a message starts a new variant.
import { pickWinner, type VariantTally } from '@reachflow/domain'
import type { Queryable } from '../db.ts'
import { chooseTemplate, firstNameOf, openingTexts, type Sequences, type TemplateChoice } from './compose.ts'

export interface OpeningStanding {
  /** Per current variant (by slot): DMs that went out or may have (sent, uncertain). */
  attempted: number[]
  /** Per current variant: confirmed sends and the replies of those leads. */
  tallies: VariantTally[]
  /** The slot of the chosen winner, while it is one of the current messages. */
  winner: number | null
}

/** The winner when there is one, else the least-sent variant; ties go to `random`. */
export function chooseOpening(
  standing: Pick<OpeningStanding, 'attempted' | 'winner'>,
  random: () => number,
): number {
  if (standing.winner !== null) return standing.winner
  const fewest = Math.min(...standing.attempted)
  const candidates = standing.attempted.flatMap((count, slot) => (count === fewest ? [slot] : []))
  return candidates[Math.floor(random() * candidates.length)] ?? 0
}

interface VariantRow {
  id: string
  template: string
  attempted: number
  sent: number
  replies: number
}

/**
 * Where the campaign's current opening variants stand; chooses (and stores) the winner when the
 * campaign asks for one and the figures now allow it.
 */
export async function openingStanding(
  db: Queryable,
  campaignId: string,
  texts: readonly string[],
): Promise<OpeningStanding> {
  const campaign = (
    await db.query<{ winner_after_sends: number | null; winner_variant_id: string | null }>(
      'select winner_after_sends, winner_variant_id from public.campaigns where id = $1',
      [campaignId],
    )
  ).rows[0]
  const { rows } = await db.query<VariantRow>(
    `select v.id, v.template,
            (count(l.id) filter (where l.status in ('sent', 'uncertain')))::int as attempted,
            (count(l.id) filter (where l.status = 'sent'))::int as sent,
            (count(l.id) filter (where l.status = 'sent' and cl.replied_at is not null))::int as replies
       from public.message_variants v
       left join public.dm_logs l on l.variant_id = v.id
       left join public.campaign_leads cl on cl.id = l.campaign_lead_id
      where v.campaign_id = $1 and v.step = 0 and v.kind = 'opening'
      group by v.id`,
    [campaignId],
  )
  const variants = texts.map((text) => rows.find((r) => r.template === text))
  const standing: OpeningStanding = {
    attempted: variants.map((v) => v?.attempted ?? 0),
    tallies: variants.map((v) => ({ sent: v?.sent ?? 0, replies: v?.replies ?? 0 })),
    winner: null,
  }
  const current = variants.findIndex((v) => v !== undefined && v.id === campaign?.winner_variant_id)
  if (current >= 0) return { ...standing, winner: current }
  if (!campaign?.winner_after_sends || texts.length < 2) return standing

  const winner = pickWinner(standing.tallies, campaign.winner_after_sends)
  const winnerId = winner === null ? undefined : variants[winner]?.id
  if (winner === null || !winnerId) return standing
  await db.query(
    `update public.campaigns set winner_variant_id = $2, winner_chosen_at = internal.now()
      where id = $1 and winner_variant_id is null`,
    [campaignId, winnerId],
  )
  return { ...standing, winner }
}

/** The template a lead's next step uses: for a first DM, the balanced (or winning) opening variant. */
export async function templateForLead(
  db: Queryable,
  campaignId: string,
  sequences: Sequences,
  lead: { current_step: number; profile_data: Record<string, unknown> },
  random: () => number,
): Promise<TemplateChoice | null> {
  let slot = 0
  if (lead.current_step === 0) {
    const texts = openingTexts(sequences)
    if (texts.length > 1) slot = chooseOpening(await openingStanding(db, campaignId, texts), random)
  }
  return chooseTemplate(sequences, lead.current_step, firstNameOf(lead.profile_data) !== null, slot)
}

/** The variant row of a text (created on its first send), inside the claim's transaction. */
export async function variantIdOf(
  db: Queryable,
  campaignId: string,
  step: number,
  choice: TemplateChoice,
): Promise<string | null> {
  const find = () =>
    db.query<{ id: string }>(
      `select id from public.message_variants
        where campaign_id = $1 and step = $2 and kind = $3 and md5(template) = md5($4) and template = $4`,
      [campaignId, step, choice.kind, choice.template],
    )
  const found = (await find()).rows[0]
  if (found) return found.id
  const inserted = await db.query<{ id: string }>(
    `insert into public.message_variants (campaign_id, step, kind, slot, template)
     values ($1, $2, $3, $4, $5) on conflict do nothing returning id`,
    [campaignId, step, choice.kind, choice.slot, choice.template],
  )
  return inserted.rows[0]?.id ?? (await find()).rows[0]?.id ?? null
}
