// Where a lead's conversation is, and how to address a DM to the lead. On X a one-to-one thread id
// follows from both user ids, so a lead whose id we scraped needs no lookup; otherwise (and on
// Instagram) the inbox tells which conversation is with the lead.
import type { DmTarget, PlatformSession } from '../platforms/types.ts'
import { xThreadId } from '../platforms/x/send.ts'

export interface LeadAddress {
  username: string
  profile_data: Record<string, unknown>
}

/** The lead's id on the platform when the scraper stored it. */
export function platformIdOf(lead: LeadAddress): string | null {
  const id = lead.profile_data.platform_id ?? lead.profile_data.id
  return typeof id === 'string' && /^\d{1,25}$/.test(id) ? id : null
}

/** What sendDm gets: the X user id when known (straight to the thread), else the username. */
export function dmTarget(session: PlatformSession, lead: LeadAddress): DmTarget {
  const id = platformIdOf(lead)
  if (session.platform === 'x' && id && session.user.id) return { userId: id }
  return { username: lead.username }
}

/** The conversation with the lead, or null when there is none. */
export async function threadWith(session: PlatformSession, lead: LeadAddress): Promise<string | null> {
  const id = platformIdOf(lead)
  if (session.platform === 'x' && id && /^\d+$/.test(session.user.id)) return xThreadId(session.user.id, id)
  const wanted = lead.username.replace(/^@/, '').toLowerCase()
  const conversations = await session.readInbox({ includeRequests: true })
  return (
    conversations.find((c) => c.peer.username.replace(/^@/, '').toLowerCase() === wanted)?.threadId ?? null
  )
}
