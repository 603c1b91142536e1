import { CheckCircle2, Database } from 'lucide-react'
import type { UseFormReturn } from 'react-hook-form'
import { EmptyState } from '@/components/ui/empty-state'
import { Skeleton } from '@/components/ui/skeleton'
import { cn } from '@/lib/cn'
import { formatCount } from '@/lib/format'
import type { LeadSource } from '../../api/get-lead-sources'
import { type CampaignForm, nameForSource } from '../../campaign-form'

/** product.md §2: only completed scraping campaigns with collected leads can be a lead source. */
export function LeadSourceStep({
  form,
  sources,
  error,
}: {
  form: UseFormReturn<CampaignForm>
  sources: LeadSource[] | undefined
  error: string | null
}) {
  const chosen = form.watch('scrapingCampaignId')
  if (error) return <p className="text-sm text-red-700">{error}</p>
  if (!sources) {
    return (
      <div className="space-y-2">
        <Skeleton className="h-16" />
        <Skeleton className="h-16" />
      </div>
    )
  }
  if (sources.length === 0) {
    return (
      <EmptyState
        icon={Database}
        title="No completed scraping campaigns"
        description="Run a lead scraping campaign to completion first; its leads become this campaign's audience."
      />
    )
  }
  return (
    <fieldset className="space-y-2">
      <legend className="sr-only">Lead source</legend>
      {sources.map((source) => {
        const selected = chosen === source.id
        return (
          <button
            key={source.id}
            type="button"
            aria-pressed={selected}
            onClick={() => {
              form.setValue('scrapingCampaignId', source.id, { shouldDirty: true })
              form.setValue('name', nameForSource(form.getValues('name'), source.name), { shouldDirty: true })
            }}
            className={cn(
              'flex w-full items-center justify-between gap-3 rounded-xl px-4 py-3 text-left ring-1 transition',
              selected ? 'bg-brand-50 ring-2 ring-brand-600' : 'bg-white ring-slate-200 hover:ring-slate-300',
            )}
          >
            <span>
              <span className="block font-medium text-slate-900">{source.name}</span>
              <span className="text-xs text-slate-500">
                {formatCount(source.leads_collected)} valid leads ·{' '}
                {source.platform?.display_name ?? 'Unknown platform'}
              </span>
            </span>
            {selected && <CheckCircle2 className="size-5 text-brand-600" aria-hidden="true" />}
          </button>
        )
      })}
    </fieldset>
  )
}
