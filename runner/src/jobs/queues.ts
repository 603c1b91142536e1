// The job queues the runner works, as supabase/migrations/*_job_queues.sql creates them, and the
// shape of each job's data (the scheduler and the functions insert these).

export const QUEUES = [
  'account.test',
  'scrape.run',
  'campaign.tick',
  'inbox.sync',
  'warmup.step',
  'platform.canary',
  'instagram.token',
  'instagram.event',
  'instagram.followup',
] as const

export type QueueName = (typeof QUEUES)[number]

export interface JobData {
  'account.test': { accountId: string }
  'scrape.run': { scrapingCampaignId: string }
  'campaign.tick': { campaignId: string; accountId: string }
  'inbox.sync': { accountId: string }
  'warmup.step': { accountId: string }
  'platform.canary': { runId: string }
  'instagram.token': { accountId: string }
  'instagram.event': { eventId: string }
  'instagram.followup': { followupId: string }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Checks a job's data before anything uses it: a malformed job fails at once with the reason. */
export function readJobData<Q extends QueueName>(queue: Q, data: unknown): JobData[Q] {
  const object = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>
  const fields: Record<QueueName, string[]> = {
    'account.test': ['accountId'],
    'scrape.run': ['scrapingCampaignId'],
    'campaign.tick': ['campaignId', 'accountId'],
    'inbox.sync': ['accountId'],
    'warmup.step': ['accountId'],
    'platform.canary': ['runId'],
    'instagram.token': ['accountId'],
    'instagram.event': ['eventId'],
    'instagram.followup': ['followupId'],
  }
  for (const field of fields[queue]) {
    const value = object[field]
    if (typeof value !== 'string' || !UUID.test(value))
      throw new Error(`${queue} job data needs ${field} as a uuid, got ${JSON.stringify(value)}`)
  }
  return object as unknown as JobData[Q]
}
