import { zodResolver } from '@hookform/resolvers/zod'
import { INVITABLE_ROLES, type InvitationSent, ROLE_DESCRIPTIONS, ROLE_LABELS } from '@reachflow/domain'
import { Send } from 'lucide-react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { Field, Input, Select } from '@/components/ui/form-field'
import { errorMessage } from '@/lib/api-client'
import { type InviteInput, inviteMember, inviteSchema } from '../api/invite-member'

/** Invite by e-mail with a role; the server's words when it refuses. */
export function InviteForm({
  workspaceId,
  onSent,
}: {
  workspaceId: string
  onSent: (sent: InvitationSent) => void
}) {
  const [serverError, setServerError] = useState<string | null>(null)
  const form = useForm<InviteInput>({
    resolver: zodResolver(inviteSchema),
    defaultValues: { email: '', role: 'agent' },
  })
  const role = form.watch('role')
  const submit = form.handleSubmit(async (values) => {
    setServerError(null)
    try {
      onSent(await inviteMember(workspaceId, values))
      form.reset({ email: '', role: values.role })
    } catch (error) {
      setServerError(errorMessage(error))
    }
  })
  const emailError = form.formState.errors.email?.message ?? null
  return (
    <form onSubmit={submit} noValidate className="space-y-3" aria-label="Invite a member">
      <div className="grid gap-3 sm:grid-cols-[1fr_11rem_auto] sm:items-start">
        <Field id="invite-email" label="E-mail address" error={emailError}>
          <Input
            id="invite-email"
            type="email"
            autoComplete="off"
            placeholder="name@agency.com"
            aria-invalid={emailError ? true : undefined}
            aria-describedby={emailError ? 'invite-email-error' : undefined}
            {...form.register('email')}
          />
        </Field>
        <Field id="invite-role" label="Role">
          <Select id="invite-role" {...form.register('role')}>
            {INVITABLE_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </Select>
        </Field>
        <Button
          type="submit"
          className="sm:mt-7"
          loading={form.formState.isSubmitting}
          icon={<Send className="size-4" aria-hidden="true" />}
        >
          Send invitation
        </Button>
      </div>
      <p className="text-xs text-slate-500">{ROLE_DESCRIPTIONS[role]}</p>
      {serverError && (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700 ring-1 ring-red-200">
          {serverError}
        </p>
      )}
    </form>
  )
}
