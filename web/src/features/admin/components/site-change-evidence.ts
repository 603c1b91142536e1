// How operators read what paused a site change: which accounts (or the canary) met the same step
// within the window, or that it is only suspected (one account so far, the canary checking).
import type { Incident, SiteChangeSighting } from '@reachflow/domain'

/** "@anna" for a job's account, "the canary (@ops)" for the canary's. */
export function sightingWho(sighting: SiteChangeSighting): string {
  const account = sighting.username ? `@${sighting.username}` : 'a deleted account'
  return sighting.source === 'canary' ? `the canary (${account})` : account
}

/** One line: what the pause rests on, or where a suspicion stands. */
export function evidenceSummary(incident: Pick<Incident, 'status' | 'evidence' | 'pausedAt'>): string {
  const { evidence } = incident
  if (!evidence) {
    return incident.status === 'open'
      ? 'Suspected: one account so far, only it waits while the canary checks'
      : 'Cleared: no second account or canary run met it'
  }
  if (evidence.reason === 'single') return 'Paused on one sighting (recorded before evidence was required)'
  const who = evidence.sightings.map(sightingWho)
  const listed = who.length > 1 ? `${who.slice(0, -1).join(', ')} and ${who.at(-1)}` : (who[0] ?? '')
  return `Met by ${listed} within ${evidence.windowMinutes} minutes`
}
