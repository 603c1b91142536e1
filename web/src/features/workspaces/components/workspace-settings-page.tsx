import { zodResolver } from '@hookform/resolvers/zod'
import { ROLE_LABELS, type WorkspaceRoleName } from '@reachflow/domain'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { PageHeading } from '@/components/layouts/page-heading'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Field, Input, Select } from '@/components/ui/form-field'
import { useToast } from '@/components/ui/toast'
import { paths } from '@/config/paths'
import { useAuth } from '@/lib/auth-store'
import { loadWorkspaces } from '@/lib/workspace/workspace-store'
import { type WorkspaceNameInput, workspaceNameSchema } from '../api/create-workspace'
import { deleteWorkspace } from '../api/delete-workspace'
import { leaveWorkspace } from '../api/leave-workspace'
import { listMembers } from '../api/list-members'
import { renameWorkspace } from '../api/rename-workspace'
import { transferOwnership } from '../api/transfer-ownership'
import { DeleteWorkspaceCard } from './delete-workspace-card'

interface Props {
  workspace: { id: string; name: string; role: WorkspaceRoleName }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : 'Unknown error')

function RenameCard({ workspace }: Props) {
  const me = useAuth((s) => s.user?.id ?? null)
  const toast = useToast()
  const [serverError, setServerError] = useState<string | null>(null)
  const form = useForm<WorkspaceNameInput>({
    resolver: zodResolver(workspaceNameSchema),
    defaultValues: { name: workspace.name },
  })
  const mayRename = workspace.role === 'owner' || workspace.role === 'admin'
  const submit = form.handleSubmit(async (values) => {
    setServerError(null)
    try {
      await renameWorkspace(workspace.id, values)
      toast.success('Workspace renamed')
      if (me) await loadWorkspaces(me, true)
    } catch (error) {
      setServerError(messageOf(error))
    }
  })
  const nameError = form.formState.errors.name?.message ?? null
  return (
    <Card>
      <CardHeader>
        <CardTitle>Name</CardTitle>
      </CardHeader>
      <CardBody>
        <form onSubmit={submit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <Field
            id="rename-workspace"
            label="Workspace name"
            error={nameError}
            hint={mayRename ? undefined : 'Only owners and admins rename a workspace.'}
            className="flex-1"
          >
            <Input
              id="rename-workspace"
              maxLength={60}
              disabled={!mayRename}
              aria-invalid={nameError ? true : undefined}
              {...form.register('name')}
            />
          </Field>
          {mayRename && (
            <Button type="submit" className="sm:mt-7" loading={form.formState.isSubmitting}>
              Save
            </Button>
          )}
        </form>
        {serverError && (
          <p role="alert" className="mt-3 text-sm font-medium text-red-600">
            {serverError}
          </p>
        )}
      </CardBody>
    </Card>
  )
}

function TransferCard({ workspace }: Props) {
  const me = useAuth((s) => s.user?.id ?? null)
  const toast = useToast()
  const members = useQuery({
    queryKey: ['workspace-members', workspace.id],
    queryFn: () => listMembers(workspace.id),
  })
  const others = (members.data ?? []).filter((m) => m.userId !== me)
  const [target, setTarget] = useState('')
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const chosen = others.find((m) => m.userId === target)
  const transfer = async () => {
    setBusy(true)
    try {
      await transferOwnership(workspace.id, target)
      window.location.assign(paths.workspaceSettings)
    } catch (error) {
      toast.error(`Failed to transfer ownership: ${messageOf(error)}`)
      setBusy(false)
      setConfirming(false)
    }
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>Transfer ownership</CardTitle>
      </CardHeader>
      <CardBody className="space-y-3">
        <p className="text-sm text-slate-600">
          The member you choose becomes the owner, with billing and deletion; you stay on as an admin.
        </p>
        {others.length === 0 ? (
          <p className="text-sm text-slate-500">Invite someone first: only a member can become the owner.</p>
        ) : (
          <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <Field id="transfer-to" label="New owner" className="flex-1">
              <Select id="transfer-to" value={target} onChange={(e) => setTarget(e.target.value)}>
                <option value="">Choose a member</option>
                {others.map((m) => (
                  <option key={m.userId} value={m.userId}>
                    {m.name ?? m.email} ({ROLE_LABELS[m.role]})
                  </option>
                ))}
              </Select>
            </Field>
            <Button variant="secondary" disabled={!chosen} onClick={() => setConfirming(true)}>
              Transfer
            </Button>
          </div>
        )}
      </CardBody>
      <ConfirmDialog
        open={confirming}
        title="Transfer ownership"
        message={`Make ${chosen?.name ?? chosen?.email ?? ''} the owner of ${workspace.name}? You become an admin.`}
        confirmLabel="Transfer"
        busy={busy}
        onConfirm={() => void transfer()}
        onCancel={() => setConfirming(false)}
      />
    </Card>
  )
}

function LeaveCard({ workspace }: Props) {
  const toast = useToast()
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const leave = async () => {
    setBusy(true)
    try {
      await leaveWorkspace(workspace.id)
      window.location.assign(paths.dashboard)
    } catch (error) {
      toast.error(`Failed to leave the workspace: ${messageOf(error)}`)
      setBusy(false)
      setConfirming(false)
    }
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>Leave workspace</CardTitle>
      </CardHeader>
      <CardBody className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600">
          You lose access to {workspace.name} until someone invites you again.
        </p>
        <Button variant="secondary" onClick={() => setConfirming(true)}>
          Leave workspace
        </Button>
      </CardBody>
      <ConfirmDialog
        open={confirming}
        title="Leave workspace"
        message={`Leave ${workspace.name}? You lose access at once.`}
        confirmLabel="Leave"
        busy={busy}
        onConfirm={() => void leave()}
        onCancel={() => setConfirming(false)}
      />
    </Card>
  )
}

/** Rename (owner, admin), transfer and delete (owner), and leave (anyone). */
export function WorkspaceSettingsPage({ workspace }: Props) {
  return (
    <main className="mx-auto max-w-3xl space-y-6 px-4 py-8 sm:px-6">
      <PageHeading
        title="Workspace settings"
        description={`${workspace.name} · your role: ${ROLE_LABELS[workspace.role]}`}
      />
      <RenameCard workspace={workspace} />
      {workspace.role === 'owner' && <TransferCard workspace={workspace} />}
      <LeaveCard workspace={workspace} />
      {workspace.role === 'owner' && (
        <DeleteWorkspaceCard
          workspace={workspace}
          onDelete={(typed) => deleteWorkspace(workspace.id, typed)}
        />
      )}
    </main>
  )
}
