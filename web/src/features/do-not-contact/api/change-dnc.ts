import { type OptOutWords, optOutWordsProblem } from '@reachflow/domain'
import { storedOptOutWordsSchema } from '@/lib/database/do-not-contact'
import { parseJson } from '@/lib/database/parse-json'
import { supabase } from '@/lib/supabase'
import type { AddResult, NewEntry } from './types'

/** Sent per request: the database takes up to 5,000 entries a call. */
const BATCH = 1000

/**
 * rpc/add_do_not_contact in batches, the outcomes in the entries' order (entry numbers across
 * batches). A failed batch throws: the ones before it are saved and say so in `done`.
 */
export async function addDncEntries(
  entries: NewEntry[],
  onProgress?: (done: number) => void,
): Promise<AddResult[]> {
  const results: AddResult[] = []
  for (let start = 0; start < entries.length; start += BATCH) {
    const batch = entries.slice(start, start + BATCH)
    const { data, error } = await supabase.rpc('add_do_not_contact', {
      p_entries: batch.map((e) => ({ ...e })),
    })
    if (error)
      throw new Error(
        start === 0
          ? `Could not add to the list: ${error.message}`
          : `Could not add the rest (${start.toLocaleString()} saved): ${error.message}`,
      )
    for (const row of data) results.push({ ...row, entry: row.entry + start })
    onProgress?.(Math.min(entries.length, start + BATCH))
  }
  return results
}

export async function removeDncEntry(id: string): Promise<void> {
  const { error } = await supabase.from('do_not_contact').delete().eq('id', id)
  if (error) throw new Error(`Could not remove it: ${error.message}`)
}

/** rpc/set_opt_out_words: checked here first and again by the database; returns them as stored. */
export async function saveOptOutWords(words: OptOutWords): Promise<OptOutWords> {
  const problem = optOutWordsProblem(words)
  if (problem) throw new Error(problem)
  const { data, error } = await supabase.rpc('set_opt_out_words', {
    p_anywhere: words.anywhere,
    p_at_start: words.atStart,
  })
  if (error) throw new Error(error.message)
  const { anywhere, atStart } = parseJson(storedOptOutWordsSchema, data, 'Your opt-out words')
  return { anywhere, atStart }
}
