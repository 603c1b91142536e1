import { z } from 'zod'
import { supabase } from '@/lib/supabase'
import type { ThreadNote } from './types'

/** A note as the database accepts it (inbox_thread_notes.body: 1-2,000 characters). */
export const noteSchema = z
  .string()
  .trim()
  .min(1, 'Write the note first.')
  .max(2000, 'Keep the note under 2,000 characters.')

/** The conversation's internal notes, oldest first. */
export async function getThreadNotes(threadId: string): Promise<ThreadNote[]> {
  const { data, error } = await supabase
    .from('inbox_thread_notes')
    .select('id, author_id, body, created_at, updated_at')
    .eq('thread_id', threadId)
    .order('created_at', { ascending: true })
    .order('id')
    .limit(500)
  if (error) throw new Error(`Could not load the notes: ${error.message}`)
  return data
}

export async function addThreadNote(threadId: string, body: string): Promise<void> {
  const { error } = await supabase
    .from('inbox_thread_notes')
    .insert({ thread_id: threadId, body: noteSchema.parse(body) })
  if (error) throw new Error(`Could not add the note: ${error.message}`)
}

/** Only the author's own note changes (row-level security); anyone else's edit matches no row. */
export async function editThreadNote(noteId: string, body: string): Promise<void> {
  const { data, error } = await supabase
    .from('inbox_thread_notes')
    .update({ body: noteSchema.parse(body) })
    .eq('id', noteId)
    .select('id')
  if (error) throw new Error(`Could not save the note: ${error.message}`)
  if (data.length === 0) throw new Error('Only its author can change this note.')
}

export async function deleteThreadNote(noteId: string): Promise<void> {
  const { data, error } = await supabase.from('inbox_thread_notes').delete().eq('id', noteId).select('id')
  if (error) throw new Error(`Could not delete the note: ${error.message}`)
  if (data.length === 0) throw new Error('Only its author can delete this note.')
}
