import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  ChevronLeft,
  ChevronRight,
  Download,
  Search,
  ShieldBan,
  Trash2,
  Upload,
  UserPlus,
} from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { EmptyState } from '@/components/ui/empty-state'
import { ErrorState } from '@/components/ui/error-state'
import { Input, Select } from '@/components/ui/form-field'
import { ReadOnlyNote } from '@/components/ui/read-only-note'
import { Skeleton } from '@/components/ui/skeleton'
import { useToast } from '@/components/ui/toast'
import { formatCount, formatDate } from '@/lib/format'
import { useCanEditWorkspace } from '@/lib/workspace/use-workspace-role'
import { removeDncEntry } from '../api/change-dnc'
import { DNC_PAGE_SIZE, DNC_SEARCH_MAX, getDncPage } from '../api/get-dnc'
import { type DncEntry, type DncPlatform, dncKeys, PLATFORM_LABEL, reasonText } from '../api/types'
import { exportDnc } from '../export-dnc'

function Skipped({ count }: { count: number }) {
  if (count === 0) return <span className="text-slate-400">None</span>
  return (
    <span className="font-medium text-slate-900">
      {formatCount(count)} {count === 1 ? 'lead' : 'leads'}
    </span>
  )
}

/** The list itself: search, platform filter, add, import, export, pages, remove with confirmation. */
export function DncList({ onAdd, onImport }: { onAdd: () => void; onImport: () => void }) {
  const toast = useToast()
  const queryClient = useQueryClient()
  const canEdit = useCanEditWorkspace()
  const [search, setSearch] = useState('')
  const [platform, setPlatform] = useState<DncPlatform | ''>('')
  const [page, setPage] = useState(0)
  const [removing, setRemoving] = useState<DncEntry | null>(null)
  const [exporting, setExporting] = useState(false)
  const list = useQuery({
    queryKey: dncKeys.page(search.trim(), platform, page),
    queryFn: () => getDncPage(search, platform, page),
    placeholderData: keepPreviousData,
  })
  const remove = useMutation({
    mutationFn: (entry: DncEntry) => removeDncEntry(entry.id),
    onSuccess: (_, entry) => {
      toast.success(`@${entry.target_username} removed from the list`)
      setRemoving(null)
      void queryClient.invalidateQueries({ queryKey: dncKeys.all })
    },
    onError: (error) => toast.error(error.message),
  })
  const runExport = async () => {
    setExporting(true)
    try {
      const count = await exportDnc()
      toast.success(`${formatCount(count)} ${count === 1 ? 'person' : 'people'} exported`)
    } catch (error) {
      toast.error((error as Error).message)
    } finally {
      setExporting(false)
    }
  }

  const total = list.data?.total ?? 0
  const rows = list.data?.rows ?? []
  const pages = Math.max(1, Math.ceil(total / DNC_PAGE_SIZE))
  const filtered = search.trim() !== '' || platform !== ''
  const searchAtLimit = search.length >= DNC_SEARCH_MAX
  const change = (apply: () => void) => {
    apply()
    setPage(0)
  }

  return (
    <Card>
      <div className="flex flex-col gap-3 border-b border-slate-100 px-4 py-4 sm:px-6 lg:flex-row lg:items-center lg:justify-between">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <div className="sm:w-64">
            <div className="relative">
              <Search
                className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
                aria-hidden="true"
              />
              <Input
                type="search"
                aria-label="Search the list"
                placeholder="Search the list..."
                className="h-9 py-0 pl-9"
                maxLength={DNC_SEARCH_MAX}
                aria-describedby={searchAtLimit ? 'dnc-search-limit' : undefined}
                value={search}
                onChange={(e) => change(() => setSearch(e.target.value))}
              />
            </div>
            {searchAtLimit ? (
              <p id="dnc-search-limit" className="mt-1 text-xs text-slate-500">
                A search uses at most {DNC_SEARCH_MAX} characters.
              </p>
            ) : null}
          </div>
          <Select
            aria-label="Platform"
            className="h-9 py-0 sm:w-40"
            value={platform}
            onChange={(e) => change(() => setPlatform(e.target.value as DncPlatform | ''))}
          >
            <option value="">All platforms</option>
            <option value="twitter">Twitter</option>
            <option value="instagram">Instagram</option>
          </Select>
        </div>
        <div className="grid grid-cols-3 gap-2 sm:flex">
          {canEdit && (
            <>
              <Button size="sm" onClick={onAdd} icon={<UserPlus className="size-4" aria-hidden="true" />}>
                Add person
              </Button>
              <Button
                size="sm"
                variant="secondary"
                onClick={onImport}
                icon={<Upload className="size-4" aria-hidden="true" />}
              >
                Import CSV
              </Button>
            </>
          )}
          <Button
            size="sm"
            variant="secondary"
            onClick={() => void runExport()}
            loading={exporting}
            loadingText="Exporting..."
            disabled={total === 0 && !filtered}
            icon={<Download className="size-4" aria-hidden="true" />}
          >
            Export CSV
          </Button>
        </div>
      </div>

      {list.isError ? (
        <div className="p-6">
          <ErrorState message={list.error.message} onRetry={() => void list.refetch()} />
        </div>
      ) : list.isPending ? (
        <div className="space-y-3 p-6">
          <p className="sr-only">Loading the list...</p>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-10" />
          ))}
        </div>
      ) : total === 0 ? (
        <div className="p-6">
          {filtered ? (
            <EmptyState
              icon={Search}
              title="Nobody found"
              description="No one on the list matches this search."
            />
          ) : (
            <EmptyState
              icon={ShieldBan}
              title="Nobody on the list yet"
              description="People who reply with an opt-out word land here on their own. Add or import anyone else you must never message."
              action={canEdit ? <Button onClick={onAdd}>Add person</Button> : <ReadOnlyNote />}
            />
          )}
        </div>
      ) : (
        <>
          <table className="w-full text-left text-sm">
            <thead className="hidden border-b border-slate-100 text-xs font-medium tracking-wide text-slate-500 uppercase sm:table-header-group">
              <tr>
                <th scope="col" className="px-6 py-3">
                  Person
                </th>
                <th scope="col" className="px-3 py-3">
                  Reason
                </th>
                <th scope="col" className="px-3 py-3">
                  Added
                </th>
                <th scope="col" className="px-3 py-3">
                  Leads skipped
                </th>
                <th scope="col" className="px-6 py-3">
                  <span className="sr-only">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((entry) => (
                <tr
                  key={entry.id}
                  data-testid="dnc-entry"
                  className="grid grid-cols-[1fr_auto] gap-x-3 px-4 py-3 sm:table-row sm:px-0 sm:py-0"
                >
                  <td className="min-w-0 sm:px-6 sm:py-3">
                    <span className="block truncate font-medium text-slate-900">
                      @{entry.target_username}
                    </span>
                    <span className="text-xs text-slate-500">{PLATFORM_LABEL[entry.platform]}</span>
                  </td>
                  <td className="col-start-1 mt-1 text-slate-700 sm:mt-0 sm:px-3 sm:py-3">
                    <span className="line-clamp-2 break-words">{reasonText(entry.reason)}</span>
                  </td>
                  <td className="col-start-1 text-xs text-slate-500 sm:px-3 sm:py-3 sm:text-sm">
                    <span className="sm:hidden">Added </span>
                    {formatDate(entry.created_at)}
                  </td>
                  <td className="col-start-1 text-xs sm:px-3 sm:py-3 sm:text-sm">
                    <span className="text-slate-500 sm:hidden">Leads skipped: </span>
                    <Skipped count={entry.skipped_leads} />
                  </td>
                  <td className="col-start-2 row-span-4 row-start-1 self-center sm:px-6 sm:py-3 sm:text-right">
                    {canEdit && (
                      <button
                        type="button"
                        className="rounded-lg p-2 text-slate-400 hover:bg-red-50 hover:text-red-600"
                        aria-label={`Remove @${entry.target_username}`}
                        onClick={() => setRemoving(entry)}
                      >
                        <Trash2 className="size-4" aria-hidden="true" />
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="flex flex-col items-center justify-between gap-3 border-t border-slate-100 px-4 py-3 text-sm text-slate-600 sm:flex-row sm:px-6">
            <p data-testid="dnc-range">
              {`Showing ${formatCount(page * DNC_PAGE_SIZE + 1)}–${formatCount(Math.min(total, (page + 1) * DNC_PAGE_SIZE))} of ${formatCount(total)}`}
            </p>
            <div className="flex items-center gap-2">
              <Button
                variant="secondary"
                size="sm"
                disabled={page === 0 || list.isFetching}
                onClick={() => setPage((p) => Math.max(0, p - 1))}
                icon={<ChevronLeft className="size-4" aria-hidden="true" />}
              >
                Previous
              </Button>
              <Button
                variant="secondary"
                size="sm"
                disabled={page >= pages - 1 || list.isFetching}
                onClick={() => setPage((p) => p + 1)}
              >
                Next
                <ChevronRight className="size-4" aria-hidden="true" />
              </Button>
            </div>
          </div>
        </>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={`Remove @${removing?.target_username ?? ''}?`}
        message={`Your campaigns may message @${removing?.target_username ?? ''} on ${removing ? PLATFORM_LABEL[removing.platform] : ''} again. Leads already skipped stay skipped. Remove only if they agreed to hear from you.`}
        confirmLabel="Remove"
        busy={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
        onCancel={() => setRemoving(null)}
      />
    </Card>
  )
}
