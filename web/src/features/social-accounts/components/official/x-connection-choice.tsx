import { cn } from '@/lib/cn'

export type XConnection = 'browser' | 'official'

const CHOICES: { value: XConnection; title: string; points: string[] }[] = [
  {
    value: 'browser',
    title: 'Browser sign-in',
    points: [
      'Paste your x.com cookies; Reachflow signs in like you do',
      'Sends DMs and finds leads (scraping)',
      'Automating x.com is against X’s rules: the account can be restricted',
    ],
  },
  {
    value: 'official',
    title: 'X API (your developer app)',
    points: [
      'Connect with X’s own sign-in through your X developer app',
      'Sends DMs through the official API, within X’s API limits',
      'No browser: finding leads still needs a browser-connected account',
    ],
  },
]

/** Shown once X is picked: how the account connects, with a plain comparison of the two ways. */
export function XConnectionChoice({
  value,
  onChange,
}: {
  value: XConnection
  onChange: (value: XConnection) => void
}) {
  return (
    <fieldset className="mt-5">
      <legend className="mb-2 text-sm font-medium text-slate-900">How should Reachflow connect to X?</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {CHOICES.map((choice) => (
          <label
            key={choice.value}
            className={cn(
              'flex cursor-pointer flex-col gap-2 rounded-xl px-4 py-3 ring-1 transition focus-within:ring-2 focus-within:ring-brand-600',
              value === choice.value
                ? 'bg-brand-50 ring-2 ring-brand-600'
                : 'bg-white ring-slate-200 hover:ring-slate-300',
            )}
          >
            <span className="flex items-center gap-2">
              <input
                type="radio"
                name="x-connection"
                value={choice.value}
                checked={value === choice.value}
                onChange={() => onChange(choice.value)}
                className="h-4 w-4 accent-brand-600"
              />
              <span className="font-semibold text-slate-900">{choice.title}</span>
            </span>
            <ul className="list-disc space-y-1 pl-9 text-xs text-slate-600">
              {choice.points.map((point) => (
                <li key={point}>{point}</li>
              ))}
            </ul>
          </label>
        ))}
      </div>
    </fieldset>
  )
}
