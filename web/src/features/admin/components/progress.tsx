import { formatNumber } from '../format'

/** 12/150 with a bar under it. */
export function Progress({ done, total }: { done: number; total: number }) {
  const percent = total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0
  return (
    <div className="min-w-[7rem]">
      <span className="tabular-nums">
        {formatNumber(done)}/{formatNumber(total)}
      </span>
      <div className="mt-1 h-1.5 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
        <div className="h-full rounded-full bg-brand-500" style={{ width: `${percent}%` }} />
      </div>
    </div>
  )
}
