import { zodResolver } from '@hookform/resolvers/zod'
import { AlertCircle, CheckCircle2 } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import {
  type ProfileSettings,
  profileSettingsSchema,
  SAVE_FAILED,
  updateProfile,
} from '../api/update-profile'

export const SAVED_MESSAGE_MS = 3000
type SaveState = 'idle' | 'saving' | 'saved'

interface ProfileFormProps {
  userId: string
  email: string
  initial: ProfileSettings
  /** After a successful save (the header shows the new name). */
  onSaved?: (values: ProfileSettings) => void
}

const inputClass =
  'mt-1.5 block h-11 w-full rounded-lg border-0 px-3 text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:outline-none'

/** Full name and business name; the e-mail is shown read-only (product.md §2 Settings). */
export function ProfileForm({ userId, email, initial, onSaved }: ProfileFormProps) {
  const [state, setState] = useState<SaveState>('idle')
  const [error, setError] = useState<string | null>(null)
  const savedTimer = useRef<ReturnType<typeof setTimeout>>(undefined)
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ProfileSettings>({ resolver: zodResolver(profileSettingsSchema), defaultValues: initial })

  useEffect(() => () => clearTimeout(savedTimer.current), [])

  const onSubmit = async (values: ProfileSettings) => {
    setError(null)
    setState('saving')
    try {
      await updateProfile(userId, values)
      onSaved?.(values)
      setState('saved')
      clearTimeout(savedTimer.current)
      savedTimer.current = setTimeout(() => setState('idle'), SAVED_MESSAGE_MS)
    } catch {
      setError(SAVE_FAILED)
      setState('idle')
    }
  }

  return (
    <form onSubmit={handleSubmit(onSubmit)} className="space-y-6" noValidate>
      <div className="grid gap-6 sm:grid-cols-2">
        <div>
          <label htmlFor="settings-full-name" className="block text-sm font-medium text-slate-700">
            Full Name
          </label>
          <input
            id="settings-full-name"
            autoComplete="name"
            className={inputClass}
            aria-invalid={Boolean(errors.full_name)}
            {...register('full_name')}
          />
          {errors.full_name && <p className="mt-1 text-sm text-red-600">{errors.full_name.message}</p>}
        </div>
        <div>
          <label htmlFor="settings-business-name" className="block text-sm font-medium text-slate-700">
            Business Name
          </label>
          <input
            id="settings-business-name"
            autoComplete="organization"
            className={inputClass}
            aria-invalid={Boolean(errors.business_name)}
            {...register('business_name')}
          />
          {errors.business_name && (
            <p className="mt-1 text-sm text-red-600">{errors.business_name.message}</p>
          )}
        </div>
      </div>
      <div>
        <label htmlFor="settings-email" className="block text-sm font-medium text-slate-700">
          Email
        </label>
        <input
          id="settings-email"
          type="email"
          value={email}
          readOnly
          aria-describedby="settings-email-note"
          className={`${inputClass} cursor-not-allowed bg-slate-50 text-slate-500`}
        />
        <p id="settings-email-note" className="mt-1.5 text-sm text-slate-500">
          Email cannot be changed. Contact support if needed.
        </p>
      </div>
      {error && (
        <p
          role="alert"
          className="flex items-center gap-2 rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700 ring-1 ring-red-200"
        >
          <AlertCircle className="size-4 shrink-0" aria-hidden="true" />
          {error}
        </p>
      )}
      <div className="flex flex-col-reverse items-center justify-end gap-3 border-t border-slate-100 pt-6 sm:flex-row">
        {state === 'saved' && (
          <p role="status" className="flex items-center gap-1.5 text-sm font-medium text-emerald-700">
            <CheckCircle2 className="size-4" aria-hidden="true" />
            Settings saved successfully
          </p>
        )}
        <Button
          type="submit"
          loading={state === 'saving'}
          loadingText="Saving..."
          className="w-full sm:w-auto"
        >
          Save Changes
        </Button>
      </div>
    </form>
  )
}
