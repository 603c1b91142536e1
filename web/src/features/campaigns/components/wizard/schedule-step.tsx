import { WEEKDAYS, type Weekday } from '@reachflow/domain'
import { useQuery } from '@tanstack/react-query'
import { CalendarOff } from 'lucide-react'
import { useMemo } from 'react'
import type { UseFormReturn } from 'react-hook-form'
import { CheckboxField, Field, Input, Select } from '@/components/ui/form-field'
import { cn } from '@/lib/cn'
import { formatDate } from '@/lib/format'
import { type AccountAllowance, getAccountAllowance } from '../../api/get-account-allowance'
import { previewDaysOff } from '../../api/preview-days-off'
import { type CampaignForm, scheduleOf } from '../../campaign-form'
import { browserTimeZone, timeZoneOptions } from './time-zones'

/** Why the account sends fewer a day than the campaign's limit, when it does. */
function allowanceHint(allowance: AccountAllowance, dailyLimit: number): string | null {
  if (!(allowance.allowed < dailyLimit)) return null
  const why =
    allowance.setBy === 'warmup'
      ? `on warm-up day ${allowance.warmupDay ?? 1}`
      : allowance.setBy === 'recovering'
        ? 'while it recovers from a platform warning'
        : allowance.setBy === 'platform'
          ? "under the platform's ceiling"
          : 'under its own daily limit'
  return `@${allowance.username} may send ${allowance.allowed} a day ${why}, inbox answers included: this campaign sends no more than that for now.`
}

const DAY_LABEL: Record<Weekday, string> = {
  monday: 'Mon',
  tuesday: 'Tue',
  wednesday: 'Wed',
  thursday: 'Thu',
  friday: 'Fri',
  saturday: 'Sat',
  sunday: 'Sun',
}

/** Daily limit (1-500), time zone, sending window, weekdays and the random days off they give. */
export function ScheduleStep({
  form,
  campaignId,
  problems,
}: {
  form: UseFormReturn<CampaignForm>
  campaignId: string
  problems: Record<string, string>
}) {
  const { register, watch, setValue } = form
  const zones = useMemo(timeZoneOptions, [])
  const mine = browserTimeZone()
  const values = watch()
  const schedule = scheduleOf(values)
  const daysOff = useQuery({
    queryKey: ['campaign-days-off-preview', campaignId, schedule],
    queryFn: () => previewDaysOff(campaignId, schedule, 28),
    enabled: schedule.randomDaysOff === true && schedule.activeDays.length > 0,
    staleTime: Number.POSITIVE_INFINITY,
  })

  const allowance = useQuery({
    queryKey: ['account-allowance', values.accountId],
    queryFn: () => getAccountAllowance(values.accountId),
    enabled: values.accountId !== '',
  })
  const allowanceNote = allowance.data ? allowanceHint(allowance.data, values.dailyLimit) : null

  const toggleDay = (day: Weekday) => {
    const next = values.activeDays.includes(day)
      ? values.activeDays.filter((d) => d !== day)
      : WEEKDAYS.filter((d) => d === day || values.activeDays.includes(d))
    setValue('activeDays', next, { shouldDirty: true })
  }

  return (
    <>
      <Field
        id="dm-daily-limit"
        label="Daily message limit"
        hint="1 to 500 messages a day from this campaign"
        error={problems.dailyLimit}
      >
        <Input
          id="dm-daily-limit"
          type="number"
          min={1}
          max={500}
          className="w-32"
          {...register('dailyLimit', { valueAsNumber: true })}
        />
        {allowanceNote && (
          <p className="mt-2 text-xs text-amber-800" data-testid="account-allowance">
            {allowanceNote}
          </p>
        )}
      </Field>
      <Field
        id="dm-timezone"
        label="Time zone"
        hint={
          mine && mine !== values.timezone ? (
            <button
              type="button"
              className="font-medium text-brand-700 hover:underline"
              onClick={() => setValue('timezone', mine, { shouldDirty: true })}
            >
              Use my time zone ({mine})
            </button>
          ) : undefined
        }
      >
        <Select id="dm-timezone" {...register('timezone')}>
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replaceAll('_', ' ')}
            </option>
          ))}
        </Select>
      </Field>
      <div className="grid grid-cols-2 gap-4">
        <Field id="dm-time-from" label="Send from">
          <Input id="dm-time-from" type="time" {...register('timeFrom')} />
        </Field>
        <Field id="dm-time-to" label="Until" error={problems.timeTo}>
          <Input id="dm-time-to" type="time" {...register('timeTo')} />
        </Field>
      </div>
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Active days</legend>
        <div className="mt-1.5 flex flex-wrap gap-1.5">
          {WEEKDAYS.map((day) => {
            const on = values.activeDays.includes(day)
            return (
              <button
                key={day}
                type="button"
                aria-pressed={on}
                onClick={() => toggleDay(day)}
                className={cn(
                  'h-9 w-12 rounded-lg text-sm font-medium ring-1 transition',
                  on
                    ? 'bg-brand-600 text-white ring-brand-600'
                    : 'bg-white text-slate-600 ring-slate-300 hover:bg-slate-50',
                )}
              >
                {DAY_LABEL[day]}
              </button>
            )
          })}
        </div>
        {problems.activeDays && (
          <p className="mt-1.5 text-xs font-medium text-red-600">{problems.activeDays}</p>
        )}
      </fieldset>
      <div className="rounded-xl ring-1 ring-slate-200">
        <CheckboxField
          id="dm-days-off"
          label="Take random days off"
          description="About one active day in seven is skipped, so the account does not message like a machine."
          {...register('randomDaysOff')}
        />
        {values.randomDaysOff && (
          <div className="flex items-start gap-2 border-t border-slate-100 px-3 py-2.5 text-sm text-slate-600">
            <CalendarOff className="mt-0.5 size-4 shrink-0 text-slate-400" aria-hidden="true" />
            <p data-testid="days-off-preview">
              {daysOff.isPending
                ? 'Working out the next days off...'
                : daysOff.isError
                  ? daysOff.error.message
                  : daysOff.data && daysOff.data.length > 0
                    ? `Next days off: ${daysOff.data.slice(0, 4).map(formatDate).join(', ')}`
                    : 'No days off in the next four weeks.'}
            </p>
          </div>
        )}
      </div>
    </>
  )
}
