// After an automation's DM was sent: its follow-up, when it has one, is scheduled for its delay
// (once per run) and its instagram.followup job queued to start then (jobs/instagram-followup.ts).
import type { Db } from '../db.ts'

export async function scheduleFollowup(db: Db, runId: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string | null }>(
    'select internal.schedule_instagram_followup($1) as id',
    [runId],
  )
  return rows[0]?.id ?? null
}
