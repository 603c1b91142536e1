import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { Dialog } from '@/components/ui/dialog'
import { Field, Input } from '@/components/ui/form-field'
import { paths } from '@/config/paths'
import { createWorkspace, type WorkspaceNameInput, workspaceNameSchema } from '../api/create-workspace'

/** A name (1-60 characters); the new workspace becomes the active one and the app reloads in it. */
export function CreateWorkspaceDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [serverError, setServerError] = useState<string | null>(null)
  const form = useForm<WorkspaceNameInput>({
    resolver: zodResolver(workspaceNameSchema),
    defaultValues: { name: '' },
  })
  const submit = form.handleSubmit(async (values) => {
    setServerError(null)
    try {
      await createWorkspace(values)
      // The database made it active: reload so nothing of the previous workspace stays on screen.
      window.location.assign(paths.dashboard)
    } catch (error) {
      setServerError(error instanceof Error ? error.message : 'Failed to create the workspace')
    }
  })
  const nameError = form.formState.errors.name?.message ?? null
  return (
    <Dialog
      open={open}
      onClose={form.formState.isSubmitting ? undefined : onClose}
      title="Create workspace"
      description="A workspace holds its own accounts, leads, campaigns, inbox, members and plan. Use one per client."
      size="md"
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field id="workspace-name" label="Workspace name" error={nameError}>
          <Input
            id="workspace-name"
            autoComplete="off"
            maxLength={60}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? 'workspace-name-error' : undefined}
            {...form.register('name')}
          />
        </Field>
        {serverError && (
          <p role="alert" className="text-sm font-medium text-red-600">
            {serverError}
          </p>
        )}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={form.formState.isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" loading={form.formState.isSubmitting}>
            Create workspace
          </Button>
        </div>
      </form>
    </Dialog>
  )
}
