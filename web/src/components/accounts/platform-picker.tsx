import type { Platform } from '@/lib/accounts/types'
import { cn } from '@/lib/cn'

/** The connectable platforms; inactive or coming-soon ones are shown but cannot be picked (product.md §5). */
export function PlatformPicker({
  platforms,
  value,
  onChange,
}: {
  platforms: Platform[]
  value: string
  onChange: (name: string) => void
}) {
  return (
    <fieldset className="grid grid-cols-2 gap-3">
      <legend className="sr-only">Platform</legend>
      {platforms.map((platform) => {
        const available = platform.is_active && !platform.coming_soon
        const selected = value === platform.name
        return (
          <button
            key={platform.id}
            type="button"
            aria-pressed={selected}
            disabled={!available}
            onClick={() => onChange(platform.name)}
            className={cn(
              'flex flex-col items-start rounded-xl px-4 py-3 text-left ring-1 transition',
              selected ? 'bg-brand-50 ring-2 ring-brand-600' : 'bg-white ring-slate-200 hover:ring-slate-300',
              !available && 'cursor-not-allowed opacity-60',
            )}
          >
            <span className="font-semibold text-slate-900">{platform.display_name}</span>
            <span className="text-xs text-slate-500">{available ? 'Available' : 'Coming soon'}</span>
          </button>
        )
      })}
    </fieldset>
  )
}
