// The body the Queues and Retries tabs share: their figures as cards over their table, then what
// the tab opens over it (a drawer, a confirmation).
import type { ReactNode } from 'react'
import { DataTable, type DataTableProps } from './data-table'
import { StatCard, type StatCardProps, StatGrid } from './stat-card'

type TableTabProps<T> = DataTableProps<T> & { figures: StatCardProps[]; children?: ReactNode }

export function TableTab<T>({ figures, children, ...table }: TableTabProps<T>) {
  return (
    <div className="space-y-6">
      <StatGrid>
        {figures.map((figure) => (
          <StatCard key={figure.label} {...figure} />
        ))}
      </StatGrid>
      <DataTable {...table} />
      {children}
    </div>
  )
}
