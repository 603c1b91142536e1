import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { z } from 'zod'
import { Button } from '@/components/ui/button'
import { Field, Input } from '@/components/ui/form-field'
import { setFirstPassword } from '../api/invite-session'

const passwordSchema = z.object({
  password: z.string().min(6, 'Password must be at least 6 characters'),
})

/** Someone who joined from the invitation mail has no password yet: they choose one to sign in again. */
export function ChoosePasswordForm({ onDone }: { onDone: () => void }) {
  const [serverError, setServerError] = useState<string | null>(null)
  const form = useForm<z.infer<typeof passwordSchema>>({
    resolver: zodResolver(passwordSchema),
    defaultValues: { password: '' },
  })
  const submit = form.handleSubmit(async ({ password }) => {
    setServerError(null)
    try {
      await setFirstPassword(password)
      onDone()
    } catch (error) {
      setServerError(error instanceof Error ? error.message : 'Failed to set the password')
    }
  })
  const error = form.formState.errors.password?.message ?? serverError
  return (
    <form onSubmit={submit} noValidate className="mt-6 space-y-4 text-left">
      <Field
        id="first-password"
        label="Choose a password"
        hint="You sign in with it next time."
        error={error}
      >
        <Input
          id="first-password"
          type="password"
          autoComplete="new-password"
          aria-invalid={error ? true : undefined}
          {...form.register('password')}
        />
      </Field>
      <Button type="submit" className="w-full" loading={form.formState.isSubmitting}>
        Save password and continue
      </Button>
    </form>
  )
}
