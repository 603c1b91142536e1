/** Warm-up phases 1-4 ramp up sends a week each; 5 is warmed up. */
export const warmupLabel = (phase: number) => (phase >= 5 ? 'Warmed up' : `Phase ${phase} of 4`)

export function TrustScore({ score }: { score: number }) {
  const percent = Math.round(score * 100)
  const color = percent >= 70 ? 'bg-emerald-500' : percent >= 40 ? 'bg-amber-500' : 'bg-red-500'
  return (
    <span className="inline-flex items-center gap-2">
      <span className="h-1.5 w-14 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
        <span className={`block h-full rounded-full ${color}`} style={{ width: `${percent}%` }} />
      </span>
      <span className="tabular-nums">{percent}%</span>
    </span>
  )
}
