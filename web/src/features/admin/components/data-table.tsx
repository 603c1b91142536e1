// A table on wide screens and a list of cards on phones: the same columns, so every tab reads well
// at 1280 and at 390 pixels without sideways scrolling.
import type { ReactNode } from 'react'
import { Card } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { cn } from '@/lib/cn'

export interface Column<T> {
  key: string
  header: string
  cell: (row: T) => ReactNode
  /** Right-aligned figures. */
  numeric?: boolean
  /** The card's title on phones. */
  primary?: boolean
  /** Buttons: at the card's foot on phones. */
  actions?: boolean
  /** Long text (an error): the card's full width on phones. */
  wide?: boolean
  className?: string
}

export interface DataTableProps<T> {
  columns: Column<T>[]
  rows: T[] | null
  rowKey: (row: T) => string
  loading?: boolean
  empty: ReactNode
  label: string
  testId?: string
  /** How many figures a phone card shows side by side. */
  mobileColumns?: 2 | 3
}

export function DataTable<T>({
  columns,
  rows,
  rowKey,
  loading,
  empty,
  label,
  testId,
  mobileColumns = 2,
}: DataTableProps<T>) {
  if (loading && !rows) {
    return (
      <Card className="flex items-center justify-center py-16 text-brand-600">
        <Spinner size={32} label={`Loading ${label}`} />
      </Card>
    )
  }
  if (!rows || rows.length === 0) {
    return (
      <Card className="px-6 py-14 text-center text-sm text-slate-500" data-testid={testId}>
        {empty}
      </Card>
    )
  }
  const primary = columns.find((c) => c.primary)
  const actions = columns.filter((c) => c.actions)
  const details = columns.filter((c) => !c.primary && !c.actions)
  return (
    <div data-testid={testId}>
      <Card className="hidden overflow-hidden md:block">
        <div className="overflow-x-auto">
          <table className="min-w-full divide-y divide-slate-100 text-sm" aria-label={label}>
            <thead className="bg-slate-50/80">
              <tr>
                {columns.map((column) => (
                  <th
                    key={column.key}
                    scope="col"
                    className={cn(
                      'px-4 py-3 text-xs font-semibold tracking-wide whitespace-nowrap text-slate-500 uppercase first:pl-6 last:pr-6',
                      column.numeric || column.actions ? 'text-right' : 'text-left',
                    )}
                  >
                    {column.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((row) => (
                <tr key={rowKey(row)} className="transition-colors hover:bg-slate-50/60">
                  {columns.map((column) => (
                    <td
                      key={column.key}
                      className={cn(
                        'px-4 py-3 align-middle text-slate-700 first:pl-6 last:pr-6',
                        column.numeric && 'text-right tabular-nums',
                        column.actions && 'text-right whitespace-nowrap',
                        column.className,
                      )}
                    >
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
      <ul className="space-y-3 md:hidden" aria-label={label}>
        {rows.map((row) => (
          <li key={rowKey(row)}>
            <Card className="p-4">
              {primary && <div className="font-semibold text-slate-900">{primary.cell(row)}</div>}
              <dl
                className={cn(
                  'mt-3 grid gap-x-4 gap-y-2.5 text-sm',
                  mobileColumns === 3 ? 'grid-cols-3' : 'grid-cols-2',
                )}
              >
                {details.map((column) => (
                  <div key={column.key} className={cn('min-w-0', column.wide && 'col-span-full')}>
                    <dt className="text-xs font-medium text-slate-500">{column.header}</dt>
                    <dd className="mt-0.5 break-words text-slate-800">{column.cell(row)}</dd>
                  </div>
                ))}
              </dl>
              {actions.length > 0 && (
                <div className="mt-4 flex flex-wrap justify-end gap-2 border-t border-slate-100 pt-3">
                  {actions.map((column) => (
                    <div key={column.key} className="flex flex-wrap justify-end gap-2">
                      {column.cell(row)}
                    </div>
                  ))}
                </div>
              )}
            </Card>
          </li>
        ))}
      </ul>
    </div>
  )
}
