import { cn } from '@/lib/cn'
import { formatCount, pluralize } from '@/lib/format'
import { PLATFORM_LABEL } from '../api/types'
import type { ParsedRow } from '../dnc-csv'

/** Rows shown in the preview: every row that needs attention, and the first good ones. */
const GOOD_ROWS_SHOWN = 20

function rowStatus(row: ParsedRow): { text: string; tone: 'ok' | 'merged' | 'error' } {
  if (row.error) return { text: row.error, tone: 'error' }
  if (row.duplicateOf !== null)
    return { text: `Same person as line ${row.duplicateOf}: merged`, tone: 'merged' }
  return { text: 'Will be added', tone: 'ok' }
}

/** What the import will do with each row of the file, before anything is saved. */
export function ImportPreview({
  rows,
  toImport,
  merged,
  bad,
}: {
  rows: ParsedRow[]
  toImport: number
  merged: number
  bad: number
}) {
  const attention = rows.filter((r) => r.error !== null || r.duplicateOf !== null)
  const good = rows.filter((r) => r.error === null && r.duplicateOf === null)
  const shown = [...attention, ...good.slice(0, GOOD_ROWS_SHOWN)].sort((a, b) => a.line - b.line)
  return (
    <section aria-label="Preview" className="space-y-3">
      <ul className="flex flex-wrap gap-2 text-sm">
        <li className="rounded-full bg-emerald-50 px-3 py-1 font-medium text-emerald-800 ring-1 ring-emerald-200">
          {pluralize(toImport, 'person', 'people')} to add
        </li>
        {merged > 0 && (
          <li className="rounded-full bg-slate-100 px-3 py-1 font-medium text-slate-700 ring-1 ring-slate-200">
            {pluralize(merged, 'repeated row')} merged
          </li>
        )}
        {bad > 0 && (
          <li className="rounded-full bg-red-50 px-3 py-1 font-medium text-red-700 ring-1 ring-red-200">
            {pluralize(bad, 'row')} with errors, not imported
          </li>
        )}
      </ul>
      <div className="max-h-72 overflow-auto rounded-xl ring-1 ring-slate-200">
        <table className="w-full text-left text-sm">
          <thead className="sticky top-0 bg-slate-50 text-xs font-medium tracking-wide text-slate-500 uppercase">
            <tr>
              <th scope="col" className="px-3 py-2">
                Line
              </th>
              <th scope="col" className="px-3 py-2">
                Person
              </th>
              <th scope="col" className="px-3 py-2">
                What happens
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {shown.map((row) => {
              const status = rowStatus(row)
              return (
                <tr key={row.line} data-testid="dnc-preview-row" data-status={status.tone}>
                  <td className="px-3 py-2 align-top text-slate-500 tabular-nums">{row.line}</td>
                  <td className="px-3 py-2 align-top">
                    <span className="font-medium break-all text-slate-900">
                      {row.username ? `@${row.username}` : '(empty)'}
                    </span>
                    {row.platform && (
                      <span className="block text-xs text-slate-500">{PLATFORM_LABEL[row.platform]}</span>
                    )}
                  </td>
                  <td
                    className={cn(
                      'px-3 py-2 align-top',
                      status.tone === 'error' && 'font-medium text-red-700',
                      status.tone === 'merged' && 'text-slate-600',
                      status.tone === 'ok' && 'text-emerald-700',
                    )}
                  >
                    {status.text}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
      {good.length > GOOD_ROWS_SHOWN && (
        <p className="text-xs text-slate-500">
          and {formatCount(good.length - GOOD_ROWS_SHOWN)} more rows to add, not shown here.
        </p>
      )}
    </section>
  )
}
