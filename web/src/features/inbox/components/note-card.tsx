import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Lock, Pencil, Trash2 } from 'lucide-react'
import { useId, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Textarea } from '@/components/ui/form-field'
import { useToast } from '@/components/ui/toast'
import { findPerson, personName } from '@/lib/workspace-people'
import { deleteThreadNote, editThreadNote, noteSchema } from '../api/thread-notes'
import type { ThreadNote, WorkspacePerson } from '../api/types'
import { inboxKeys } from '../hooks/use-inbox'

export const NOTE_BANNER = 'Internal note — only your team sees this'

const time = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/**
 * An internal note in the conversation's timeline: amber and dashed so nobody takes it for a
 * message; its author may edit or delete it.
 */
export function NoteCard({
  note,
  threadId,
  people,
  me,
}: {
  note: ThreadNote
  threadId: string
  people: readonly WorkspacePerson[]
  me: string | undefined
}) {
  const queryClient = useQueryClient()
  const toast = useToast()
  const fieldId = useId()
  const [editing, setEditing] = useState<string | null>(null)
  const [editError, setEditError] = useState<string | null>(null)
  const refresh = () => queryClient.invalidateQueries({ queryKey: inboxKeys.notes(threadId) })
  const save = useMutation({
    mutationFn: (body: string) => editThreadNote(note.id, body),
    onSuccess: () => {
      setEditing(null)
      void refresh()
    },
    onError: (error) => setEditError(error.message),
  })
  const remove = useMutation({
    mutationFn: () => deleteThreadNote(note.id),
    onSuccess: () => {
      toast.success('Note deleted')
      void refresh()
    },
    onError: (error) => toast.error(error.message),
  })
  const mine = Boolean(me && note.author_id === me)
  const author = personName(findPerson(people, note.author_id), me)

  return (
    <li
      data-testid="inbox-note"
      aria-label={`${NOTE_BANNER}, by ${author}`}
      className="mx-auto max-w-[92%] rounded-xl border border-dashed border-amber-300 bg-amber-50 px-3.5 py-2.5 text-sm text-amber-950"
    >
      <p className="flex items-center gap-1.5 text-xs font-semibold text-amber-800">
        <Lock className="size-3.5 shrink-0" aria-hidden="true" />
        {NOTE_BANNER}
      </p>
      {editing === null ? (
        <p className="mt-1 break-words whitespace-pre-wrap">{note.body}</p>
      ) : (
        <form
          className="mt-2 space-y-2"
          onSubmit={(event) => {
            event.preventDefault()
            const parsed = noteSchema.safeParse(editing)
            if (!parsed.success) return setEditError(parsed.error.issues[0]?.message ?? null)
            save.mutate(parsed.data)
          }}
        >
          <label htmlFor={fieldId} className="sr-only">
            Edit your note
          </label>
          <Textarea
            id={fieldId}
            rows={2}
            value={editing}
            aria-invalid={editError ? true : undefined}
            onChange={(event) => {
              setEditing(event.target.value)
              setEditError(null)
            }}
            className="resize-none bg-white"
          />
          {editError && <p className="text-xs font-medium text-red-600">{editError}</p>}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="secondary" size="sm" onClick={() => setEditing(null)}>
              Cancel
            </Button>
            <Button type="submit" size="sm" loading={save.isPending}>
              Save note
            </Button>
          </div>
        </form>
      )}
      <div className="mt-1.5 flex flex-wrap items-center justify-between gap-2 text-xs text-amber-800/80">
        <span>
          {author} · {time.format(new Date(note.created_at))}
          {note.updated_at !== note.created_at && ' · edited'}
        </span>
        {mine && editing === null && (
          <span className="flex gap-1">
            <button
              type="button"
              onClick={() => setEditing(note.body)}
              className="inline-flex items-center gap-1 rounded px-1.5 py-0.5 font-medium hover:bg-amber-100"
            >
              <Pencil className="size-3" aria-hidden="true" /> Edit
            </button>
            <button
              type="button"
              disabled={remove.isPending}
              onClick={() => remove.mutate()}
              className="inline-flex items-center gap-1 rounded px-1.5 py-0.5 font-medium text-red-700 hover:bg-red-50"
            >
              <Trash2 className="size-3" aria-hidden="true" /> Delete
            </button>
          </span>
        )}
      </div>
    </li>
  )
}
