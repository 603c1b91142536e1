// Site-change outlines in the private storage bucket. The runner has no storage credentials: it
// leaves each incident's newest outline in platform_incident_outlines, and the admin function
// files it as `<incident id>/outline.json` the next time operators read incidents. A staging row
// is deleted only if it is still the one filed (a newer sighting may have replaced it meanwhile).
import type { SupabaseClient } from '../_shared/clients.ts'
import { must } from '../_shared/db-errors.ts'

export const OUTLINE_BUCKET = 'site-change-outlines'

export interface StoredOutline {
  incidentId: string
  capturedAt: string
  path: string
  lines: string[]
  truncated: boolean
}

interface StagedOutline {
  incident_id: string
  captured_at: string
  path: string
  outline: { lines?: unknown; truncated?: unknown }
}

const objectName = (incidentId: string) => `${incidentId}/outline.json`

/** Files every waiting outline (at most `limit`); returns how many were filed. */
export async function fileOutlines(db: SupabaseClient, limit = 20): Promise<number> {
  const staged = must(
    await db
      .from('platform_incident_outlines')
      .select('incident_id, captured_at, path, outline')
      .order('captured_at')
      .limit(limit),
  ) as StagedOutline[]
  for (const row of staged) {
    const stored: StoredOutline = {
      incidentId: row.incident_id,
      capturedAt: row.captured_at,
      path: row.path,
      lines: Array.isArray(row.outline.lines) ? row.outline.lines.map(String) : [],
      truncated: row.outline.truncated === true,
    }
    const { error } = await db.storage
      .from(OUTLINE_BUCKET)
      .upload(objectName(row.incident_id), new Blob([JSON.stringify(stored)], { type: 'application/json' }), {
        contentType: 'application/json',
        upsert: true,
      })
    if (error) throw new Error(`Filing the outline of incident ${row.incident_id} failed: ${error.message}`)
    must(
      await db
        .from('platform_incidents')
        .update({ outline_object: objectName(row.incident_id) })
        .eq('id', row.incident_id)
        .select('id'),
    )
    must(
      await db
        .from('platform_incident_outlines')
        .delete()
        .eq('incident_id', row.incident_id)
        .eq('captured_at', row.captured_at)
        .select('incident_id'),
    )
  }
  return staged.length
}

/** The filed outline of an incident, or null when it has none. */
export async function readOutline(db: SupabaseClient, name: string | null): Promise<StoredOutline | null> {
  if (!name) return null
  const { data, error } = await db.storage.from(OUTLINE_BUCKET).download(name)
  if (error || !data) return null
  return JSON.parse(await data.text()) as StoredOutline
}
