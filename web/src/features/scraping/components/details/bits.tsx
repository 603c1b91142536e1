import type { ReactNode } from 'react'

export function Tile({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <div className="rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200/70">
      <p className="text-xs font-medium text-slate-500">{label}</p>
      <p className="mt-1 text-2xl font-bold text-slate-900 tabular-nums" data-testid={testId}>
        {value}
      </p>
    </div>
  )
}

export function Heading({ children }: { children: ReactNode }) {
  return <h4 className="mb-2 text-sm font-semibold text-slate-900">{children}</h4>
}

const SOURCE_LABEL: Record<string, string> = {
  followers: 'Followers',
  following: 'Following',
  hashtag: 'Hashtag posts',
  keyword: 'Keyword search',
}
export const sourceLabel = (type: string | null) => (type ? (SOURCE_LABEL[type] ?? type) : '—')
