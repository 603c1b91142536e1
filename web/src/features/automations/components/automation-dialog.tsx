import { zodResolver } from '@hookform/resolvers/zod'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { AlertCircle } from 'lucide-react'
import { useState } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { Dialog } from '@/components/ui/dialog'
import { Field, Input, Select, Textarea } from '@/components/ui/form-field'
import { Switch } from '@/components/ui/switch'
import { useToast } from '@/components/ui/toast'
import { cn } from '@/lib/cn'
import { createAutomation, updateAutomation } from '../api/save-automation'
import { type Automation, automationKeys, type OfficialAccount } from '../api/types'
import {
  type AutomationFormValues,
  automationFormSchema,
  byteLength,
  emptyAutomation,
  formValuesOf,
  LIMITS,
  needsKeywords,
  TRIGGER_HINT,
  TRIGGER_LABEL,
  TRIGGERS,
} from '../automation-form'
import { FollowupSection } from './followup-section'
import { KeywordInput } from './keyword-input'
import { PostPicker } from './post-picker'

const describe = (id: string, error: unknown) => (error ? `${id}-error` : `${id}-hint`)

/** Create or edit an automation: what triggers it, the keywords, and what it answers. */
export function AutomationDialog({
  accounts,
  automation,
  accountId: initialAccountId,
  onClose,
}: {
  accounts: OfficialAccount[]
  /** The automation to edit; none to create one. */
  automation?: Automation
  /** A new automation's account, when it was started from that account's section. */
  accountId?: string
  onClose: () => void
}) {
  const toast = useToast()
  const queryClient = useQueryClient()
  const [refusal, setRefusal] = useState<string | null>(null)
  const {
    register,
    control,
    handleSubmit,
    watch,
    setValue,
    formState: { errors },
  } = useForm<AutomationFormValues>({
    resolver: zodResolver(automationFormSchema),
    defaultValues: automation
      ? formValuesOf(automation)
      : emptyAutomation(initialAccountId ?? (accounts.length === 1 ? accounts[0]?.id : '')),
  })
  const trigger = watch('trigger')
  const postScope = watch('postScope')
  const accountId = watch('accountId')
  const replyBytes = byteLength(watch('replyText').trim())
  const comment = trigger === 'comment_keyword'

  const save = useMutation({
    mutationFn: (values: AutomationFormValues) =>
      automation ? updateAutomation(automation.id, values) : createAutomation(values),
    onSuccess: (_done, values) => {
      void queryClient.invalidateQueries({ queryKey: automationKeys.all })
      toast.success(automation ? `"${values.name.trim()}" was saved` : `"${values.name.trim()}" was created`)
      onClose()
    },
    // the database's own refusal, in its words
    onError: (error) => setRefusal(error.message),
  })

  return (
    <Dialog
      open
      onClose={save.isPending ? undefined : onClose}
      title={automation ? 'Edit automation' : 'New automation'}
      description="Answer comments, DMs and story mentions on Instagram automatically, through Instagram's API."
      size="2xl"
    >
      <form
        noValidate
        onSubmit={handleSubmit((values) => {
          setRefusal(null)
          save.mutate(values)
        })}
        className="space-y-5"
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="automation-name" label="Name" error={errors.name?.message} hint="Only you see it.">
            <Input
              id="automation-name"
              autoComplete="off"
              placeholder="Lookbook giveaway"
              aria-invalid={Boolean(errors.name)}
              aria-describedby={describe('automation-name', errors.name)}
              {...register('name')}
            />
          </Field>
          <Field id="automation-account" label="Instagram account" error={errors.accountId?.message}>
            <Select
              id="automation-account"
              aria-invalid={Boolean(errors.accountId)}
              aria-describedby={errors.accountId ? 'automation-account-error' : undefined}
              {...register('accountId', {
                // a post belongs to one account: another account's picker starts unchosen
                onChange: () => setValue('mediaId', ''),
              })}
            >
              <option value="">Choose an account</option>
              {accounts.map((a) => (
                <option key={a.id} value={a.id}>
                  @{a.username}
                </option>
              ))}
            </Select>
          </Field>
        </div>

        <fieldset>
          <legend className="text-sm font-medium text-slate-700">Trigger</legend>
          <Controller
            control={control}
            name="trigger"
            render={({ field }) => (
              <div className="mt-1.5 grid gap-2 sm:grid-cols-2">
                {TRIGGERS.map((t) => (
                  <label
                    key={t}
                    className={cn(
                      'flex cursor-pointer flex-col rounded-xl px-3.5 py-3 ring-1 transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-600',
                      field.value === t ? 'bg-brand-50 ring-brand-500' : 'ring-slate-200 hover:bg-slate-50',
                    )}
                  >
                    <span className="flex items-center gap-2 text-sm font-medium text-slate-900">
                      <input
                        type="radio"
                        name={field.name}
                        value={t}
                        checked={field.value === t}
                        onChange={() => field.onChange(t)}
                        aria-label={TRIGGER_LABEL[t]}
                        aria-describedby={`trigger-${t}-hint`}
                        className="size-4 accent-brand-600"
                      />
                      {TRIGGER_LABEL[t]}
                    </span>
                    <span id={`trigger-${t}-hint`} className="mt-1 pl-6 text-xs text-slate-500">
                      {TRIGGER_HINT[t]}
                    </span>
                  </label>
                ))}
              </div>
            )}
          />
        </fieldset>

        {comment && (
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-700">Which posts</legend>
            <div className="mt-1.5 flex flex-wrap gap-x-5 gap-y-1.5">
              <label className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="radio"
                  value="any"
                  className="size-4 accent-brand-600"
                  {...register('postScope')}
                />
                Any post or reel
              </label>
              <label className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="radio"
                  value="one"
                  className="size-4 accent-brand-600"
                  {...register('postScope')}
                />
                One post or reel
              </label>
            </div>
            {postScope === 'one' && (
              <>
                <Controller
                  control={control}
                  name="mediaId"
                  render={({ field }) => (
                    <PostPicker
                      accountId={accountId}
                      value={field.value}
                      onChange={field.onChange}
                      invalid={Boolean(errors.mediaId)}
                      describedBy={errors.mediaId ? 'automation-post-error' : undefined}
                    />
                  )}
                />
                {errors.mediaId && (
                  <p id="automation-post-error" className="text-xs font-medium text-red-600">
                    {errors.mediaId.message}
                  </p>
                )}
              </>
            )}
          </fieldset>
        )}

        <Field
          id="automation-keywords"
          label="Keywords"
          optional={!needsKeywords(trigger)}
          error={errors.keywords?.message}
          hint={
            needsKeywords(trigger)
              ? 'Matched as whole words, upper or lower case: "guide" answers "GUIDE please", not "guidebook". Press Enter after each.'
              : 'Leave empty to answer every one; with keywords, only those that contain one.'
          }
        >
          <Controller
            control={control}
            name="keywords"
            render={({ field }) => (
              <KeywordInput
                id="automation-keywords"
                value={field.value}
                onChange={field.onChange}
                invalid={Boolean(errors.keywords)}
                describedBy={describe('automation-keywords', errors.keywords)}
              />
            )}
          />
        </Field>

        <Field
          id="automation-reply"
          label={comment ? 'Private reply (sent as a DM)' : 'Reply (sent as a DM)'}
          error={errors.replyText?.message}
          hint={
            <span className="flex justify-between gap-3">
              <span>
                {comment
                  ? 'Instagram allows one private reply per comment, within 7 days of it.'
                  : 'Sent inside the 24 hours Instagram allows after the person wrote.'}
              </span>
              <span className={cn('tabular-nums', replyBytes > LIMITS.replyBytes && 'text-red-600')}>
                {replyBytes}/{LIMITS.replyBytes}
              </span>
            </span>
          }
        >
          <Textarea
            id="automation-reply"
            rows={4}
            placeholder="Here's the lookbook you asked for: https://…"
            aria-invalid={Boolean(errors.replyText)}
            aria-describedby={describe('automation-reply', errors.replyText)}
            {...register('replyText')}
          />
        </Field>

        {comment && (
          <Field
            id="automation-public-reply"
            label="Public reply to the comment"
            optional
            error={errors.publicReplyText?.message}
            hint="Posted under their comment, so others see you answered."
          >
            <Input
              id="automation-public-reply"
              placeholder="Sent you a DM 💌"
              aria-invalid={Boolean(errors.publicReplyText)}
              aria-describedby={describe('automation-public-reply', errors.publicReplyText)}
              {...register('publicReplyText')}
            />
          </Field>
        )}

        <FollowupSection control={control} register={register} errors={errors} />

        <div className="flex items-center justify-between gap-4 rounded-xl bg-slate-50 px-4 py-3 ring-1 ring-slate-200">
          <div>
            <p className="text-sm font-medium text-slate-800">Enabled</p>
            <p className="text-xs text-slate-500">
              A paused automation answers nothing until you turn it on.
            </p>
          </div>
          <Controller
            control={control}
            name="enabled"
            render={({ field }) => <Switch checked={field.value} onChange={field.onChange} label="Enabled" />}
          />
        </div>

        {refusal && (
          <p
            role="alert"
            className="flex items-start gap-2 rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700 ring-1 ring-red-200"
          >
            <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            {refusal}
          </p>
        )}

        <div className="flex flex-col-reverse gap-2 border-t border-slate-100 pt-4 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending} loadingText="Saving...">
            {automation ? 'Save changes' : 'Create automation'}
          </Button>
        </div>
      </form>
    </Dialog>
  )
}
