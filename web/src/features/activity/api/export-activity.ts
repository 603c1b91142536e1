import { type CsvColumn, csvFilename, downloadCsv, toCsv } from '@/lib/csv'
import { activityActionLabel, activityActor, describeActivity } from '../activity-text'
import { getActivity } from './get-activity'
import type { ActivityEntry, ActivityFilters } from './types'

const BATCH = 1000
/** Bounded like the other exports, so one click cannot pull years of a busy workspace. */
const EXPORT_LIMIT = 50_000

export const ACTIVITY_CSV_COLUMNS: CsvColumn<ActivityEntry>[] = [
  { header: 'When', value: (e) => e.at },
  { header: 'Who', value: (e) => activityActor(e) },
  { header: 'Action', value: (e) => activityActionLabel(e.action) },
  { header: 'Subject', value: (e) => e.subject_label },
  { header: 'What Happened', value: (e) => `${activityActor(e)} ${describeActivity(e)}` },
]

/** Every line matching the filters (not only the page shown), fetched page by page, as CSV; returns how many. */
export async function exportActivity(filters: ActivityFilters): Promise<number> {
  const rows: ActivityEntry[] = []
  for (let from = 0; from < EXPORT_LIMIT; from += BATCH) {
    const { entries } = await getActivity(filters, { from, to: from + BATCH - 1 })
    rows.push(...entries)
    if (entries.length < BATCH) break
  }
  downloadCsv(csvFilename('activity'), toCsv(rows, ACTIVITY_CSV_COLUMNS))
  return rows.length
}
