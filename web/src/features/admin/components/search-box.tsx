import { Search } from 'lucide-react'

/** Filters a tab's rows as the operator types (the lists are loaded whole). */
export function SearchBox({
  value,
  onChange,
  placeholder,
}: {
  value: string
  onChange: (v: string) => void
  placeholder: string
}) {
  return (
    <div className="relative w-full sm:max-w-xs">
      <Search
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
        aria-hidden="true"
      />
      <input
        type="search"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        aria-label={placeholder}
        className="h-10 w-full rounded-lg border border-slate-300 bg-white pr-3 pl-9 text-sm text-slate-800 shadow-sm placeholder:text-slate-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/20 focus:outline-none"
      />
    </div>
  )
}

/** Rows whose listed fields contain the query (case-insensitive). */
export function matches<T>(
  rows: T[] | null,
  query: string,
  fields: (row: T) => (string | null | undefined)[],
): T[] | null {
  const needle = query.trim().toLowerCase()
  if (!rows || !needle) return rows
  return rows.filter((row) => fields(row).some((field) => field?.toLowerCase().includes(needle)))
}
