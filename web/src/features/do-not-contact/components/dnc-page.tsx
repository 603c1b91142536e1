import { useQuery } from '@tanstack/react-query'
import { ArrowLeft } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { ErrorState } from '@/components/ui/error-state'
import { Skeleton } from '@/components/ui/skeleton'
import { paths } from '@/config/paths'
import { formatCount } from '@/lib/format'
import { getDncOverview } from '../api/get-dnc'
import { dncKeys } from '../api/types'
import { AddPersonDialog } from './add-person-dialog'
import { DncList } from './dnc-list'
import { ImportDialog } from './import-dialog'
import { OptOutWordsCard } from './opt-out-words'

function Figure({ label, value, hint }: { label: string; value: number | undefined; hint: string }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white px-5 py-4 shadow-card">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">
        {value === undefined ? <Skeleton className="h-8 w-16" /> : formatCount(value)}
      </dd>
      <dd className="mt-1 text-xs text-slate-500">{hint}</dd>
    </div>
  )
}

/**
 * The do-not-contact list (Settings): who is on it and why, how many campaign leads it kept from
 * being messaged, adding, importing, exporting and removing people, and the opt-out words.
 */
export function DncPage() {
  const [dialog, setDialog] = useState<'add' | 'import' | null>(null)
  const overview = useQuery({ queryKey: dncKeys.overview, queryFn: getDncOverview })
  return (
    <>
      <main className="mx-auto max-w-5xl space-y-6 px-4 py-8 sm:px-6 sm:py-12">
        <div>
          <Link
            to={paths.settings}
            className="inline-flex items-center gap-1.5 text-sm font-medium text-slate-600 hover:text-slate-900"
          >
            <ArrowLeft className="size-4" aria-hidden="true" />
            Back to Settings
          </Link>
          <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
            Do-not-contact list
          </h1>
          <p className="mt-1 max-w-2xl text-slate-600">
            People Reachflow never messages, from any of your accounts or campaigns. Anyone who replies with
            one of your opt-out words is added here on their own.
          </p>
        </div>
        {overview.isError ? (
          <ErrorState message={overview.error.message} onRetry={() => void overview.refetch()} />
        ) : (
          <dl className="grid gap-4 sm:grid-cols-2">
            <Figure
              label="People on the list"
              value={overview.data?.entries}
              hint="Added by you, imported, or opted out by reply."
            />
            <Figure
              label="Leads skipped because of it"
              value={overview.data?.skippedLeads}
              hint="Campaign leads not messaged because they are on the list."
            />
          </dl>
        )}
        <DncList onAdd={() => setDialog('add')} onImport={() => setDialog('import')} />
        {overview.data && (
          <OptOutWordsCard
            key={JSON.stringify(overview.data.words)}
            saved={{ anywhere: overview.data.words.anywhere, atStart: overview.data.words.atStart }}
          />
        )}
      </main>
      {dialog === 'add' && <AddPersonDialog onClose={() => setDialog(null)} />}
      {dialog === 'import' && <ImportDialog onClose={() => setDialog(null)} />}
    </>
  )
}
