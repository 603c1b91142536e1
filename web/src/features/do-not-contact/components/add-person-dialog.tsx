import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Info } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Dialog } from '@/components/ui/dialog'
import { Field, Input, Select } from '@/components/ui/form-field'
import { useToast } from '@/components/ui/toast'
import { addDncEntries } from '../api/change-dnc'
import { type DncPlatform, dncKeys, PLATFORM_LABEL } from '../api/types'
import { readUsername, usernameProblem } from '../dnc-csv'

/** One person by username (or profile link) and platform, with an optional note. */
export function AddPersonDialog({ onClose }: { onClose: () => void }) {
  const toast = useToast()
  const queryClient = useQueryClient()
  const [platform, setPlatform] = useState<DncPlatform>('twitter')
  const [username, setUsername] = useState('')
  const [note, setNote] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  // Someone already listed: nothing changed, so the dialog stays open and says so.
  const [alreadyListed, setAlreadyListed] = useState<string | null>(null)
  const add = useMutation({
    mutationFn: (entry: { platform: DncPlatform; username: string; reason: string }) =>
      addDncEntries([entry]),
    onSuccess: ([result], entry) => {
      if (result?.outcome === 'invalid') return setProblem(result.error)
      if (result?.outcome === 'already')
        return setAlreadyListed(
          `@${entry.username} is already on the do-not-contact list for ${PLATFORM_LABEL[entry.platform]}. Nothing was changed.`,
        )
      void queryClient.invalidateQueries({ queryKey: dncKeys.all })
      toast.success(`@${entry.username} will never be messaged on ${PLATFORM_LABEL[entry.platform]}`)
      onClose()
    },
    onError: (error) => setProblem(error.message),
  })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const read = readUsername(username)
    const chosen = read.platform ?? platform
    const error = usernameProblem(read.username, chosen)
    if (error) return setProblem(error)
    setProblem(null)
    setAlreadyListed(null)
    add.mutate({ platform: chosen, username: read.username, reason: note.trim() })
  }

  return (
    <Dialog
      open
      onClose={add.isPending ? undefined : onClose}
      title="Add to the do-not-contact list"
      size="md"
    >
      <form noValidate onSubmit={submit} className="space-y-4">
        <Field id="dnc-platform" label="Platform">
          <Select
            id="dnc-platform"
            value={platform}
            onChange={(e) => {
              setAlreadyListed(null)
              setPlatform(e.target.value as DncPlatform)
            }}
          >
            <option value="twitter">Twitter</option>
            <option value="instagram">Instagram</option>
          </Select>
        </Field>
        <Field
          id="dnc-username"
          label="Username"
          hint="Without the @, or paste their profile link."
          error={problem}
        >
          <Input
            id="dnc-username"
            autoComplete="off"
            placeholder="theirhandle"
            value={username}
            aria-invalid={problem !== null}
            aria-describedby={problem ? 'dnc-username-error' : 'dnc-username-hint'}
            onChange={(e) => {
              setProblem(null)
              setAlreadyListed(null)
              setUsername(e.target.value)
            }}
          />
        </Field>
        <Field id="dnc-note" label="Note" optional hint="Why, for your team: e.g. Asked by e-mail.">
          <Input id="dnc-note" maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
        </Field>
        {alreadyListed && (
          <p
            role="status"
            className="flex items-start gap-2 rounded-lg bg-amber-50 px-3 py-2.5 text-sm text-amber-900 ring-1 ring-amber-200"
          >
            <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            {alreadyListed}
          </p>
        )}
        <div className="flex flex-col-reverse gap-2 border-t border-slate-100 pt-4 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={add.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending} loadingText="Adding...">
            Add to list
          </Button>
        </div>
      </form>
    </Dialog>
  )
}
