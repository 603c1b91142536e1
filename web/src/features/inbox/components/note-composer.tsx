import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Lock, StickyNote } from 'lucide-react'
import { type FormEvent, useId, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Textarea } from '@/components/ui/form-field'
import { addThreadNote, noteSchema } from '../api/thread-notes'
import { inboxKeys } from '../hooks/use-inbox'
import { NOTE_BANNER } from './note-card'

/** Writes an internal note on the conversation: saved for the team, never sent to the person. */
export function NoteComposer({ threadId, peer }: { threadId: string; peer: string }) {
  const queryClient = useQueryClient()
  const fieldId = useId()
  const [draft, setDraft] = useState('')
  const [error, setError] = useState<string | null>(null)
  const add = useMutation({
    mutationFn: (body: string) => addThreadNote(threadId, body),
    onSuccess: () => {
      setDraft('')
      void queryClient.invalidateQueries({ queryKey: inboxKeys.notes(threadId) })
    },
    onError: (failure) => setError(failure.message),
  })
  const submit = (event?: FormEvent) => {
    event?.preventDefault()
    const parsed = noteSchema.safeParse(draft)
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Write the note first.')
    setError(null)
    add.mutate(parsed.data)
  }
  return (
    <form onSubmit={submit}>
      <label htmlFor={fieldId} className="sr-only">
        Internal note on the conversation with @{peer}
      </label>
      <Textarea
        id={fieldId}
        rows={2}
        value={draft}
        placeholder="Write a note for your team…"
        aria-invalid={error ? true : undefined}
        aria-describedby={`${fieldId}-help`}
        onChange={(event) => {
          setDraft(event.target.value)
          if (error) setError(null)
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) submit()
        }}
        className="resize-none border-amber-300 bg-amber-50/60 focus:border-amber-400"
      />
      <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
        <p
          id={`${fieldId}-help`}
          className={
            error ? 'text-xs font-medium text-red-600' : 'flex items-center gap-1 text-xs text-amber-800'
          }
        >
          {error ?? (
            <>
              <Lock className="size-3" aria-hidden="true" />
              {NOTE_BANNER}
            </>
          )}
        </p>
        <Button
          type="submit"
          size="sm"
          variant="secondary"
          loading={add.isPending}
          icon={<StickyNote className="size-4" aria-hidden="true" />}
        >
          Add note
        </Button>
      </div>
    </form>
  )
}
