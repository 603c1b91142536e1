import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { Dialog } from '@/components/ui/dialog'
import { Field, Input } from '@/components/ui/form-field'
import { paths } from '@/config/paths'

/** Deleting takes every account, lead, campaign and conversation with it, so the name must be typed. */
export function DeleteWorkspaceCard({
  workspace,
  onDelete,
}: {
  workspace: { name: string }
  onDelete: (typedName: string) => Promise<void>
}) {
  const [open, setOpen] = useState(false)
  const [typed, setTyped] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const close = () => {
    setOpen(false)
    setTyped('')
    setError(null)
  }
  const remove = async () => {
    setBusy(true)
    setError(null)
    try {
      await onDelete(typed)
      window.location.assign(paths.dashboard)
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Failed to delete the workspace')
      setBusy(false)
    }
  }
  return (
    <Card className="ring-red-200">
      <CardHeader>
        <CardTitle className="text-red-700">Delete workspace</CardTitle>
      </CardHeader>
      <CardBody className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600">
          Deletes {workspace.name} with its accounts, leads, campaigns, inbox and members. This cannot be
          undone.
        </p>
        <Button variant="danger" onClick={() => setOpen(true)}>
          Delete workspace
        </Button>
      </CardBody>
      <Dialog open={open} onClose={busy ? undefined : close} title="Delete workspace" size="md">
        <form
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault()
            void remove()
          }}
        >
          <Field
            id="delete-confirm"
            label={
              <>
                Type <strong className="font-semibold">{workspace.name}</strong> to confirm
              </>
            }
            error={error}
          >
            <Input
              id="delete-confirm"
              autoComplete="off"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
            />
          </Field>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={close} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" loading={busy} disabled={typed !== workspace.name}>
              Delete workspace
            </Button>
          </div>
        </form>
      </Dialog>
    </Card>
  )
}
