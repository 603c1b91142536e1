import { Check } from 'lucide-react'
import { cn } from '@/lib/cn'

/** How an account connects: a browser signed in as the customer, or the platform's official API. */
export type Connection = 'browser' | 'official'

interface Choice {
  value: Connection
  title: string
  tagline: string
  points: string[]
}

/**
 * The plain comparison the wizard shows once a platform is picked, the same shape for both
 * platforms: what each way can do, what it needs, and what it risks.
 */
const CHOICES: Record<'twitter' | 'instagram', Choice[]> = {
  twitter: [
    {
      value: 'browser',
      title: 'Browser sign-in',
      tagline: 'For cold outreach',
      points: [
        'Paste your x.com cookies; Reachflow signs in like you do',
        'Sends DMs and finds leads (scraping)',
        'Automating x.com is against X’s rules: the account can be restricted',
      ],
    },
    {
      value: 'official',
      title: 'X API (your developer app)',
      tagline: 'Official API',
      points: [
        'Connect with X’s own sign-in through your X developer app',
        'Sends DMs through the official API, within X’s API limits',
        'No browser: finding leads still needs a browser-connected account',
      ],
    },
  ],
  instagram: [
    {
      value: 'browser',
      title: 'Browser sign-in',
      tagline: 'For cold outreach',
      points: [
        'Cold DM campaigns to scraped leads',
        'Any account, signed in with its password',
        'Automating instagram.com is against Instagram’s rules: pacing lowers the risk, it does not remove it',
      ],
    },
    {
      value: 'official',
      title: 'Official Instagram API',
      tagline: 'Recommended for automations',
      points: [
        'Reply to comments, DMs and story mentions with automations',
        'No password stored: Instagram’s own approved API',
        'Business or Creator accounts only; no cold DMs',
      ],
    },
  ],
}

/** What Next does with the official way, said under the cards. */
const OFFICIAL_NEXT: Record<'twitter' | 'instagram', string> = {
  twitter: 'Next asks for your X developer app’s keys, then X’s own sign-in.',
  instagram: 'Continue to Instagram to sign in there and allow Reachflow; you come back here connected.',
}

export function ConnectionChoice({
  platform,
  value,
  onChange,
}: {
  platform: 'twitter' | 'instagram'
  value: Connection
  onChange: (value: Connection) => void
}) {
  const name = platform === 'twitter' ? 'X' : 'Instagram'
  return (
    <fieldset className="mt-5">
      <legend className="mb-2 text-sm font-medium text-slate-900">
        How should Reachflow connect to {name}?
      </legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {CHOICES[platform].map((choice) => {
          const checked = value === choice.value
          return (
            <label
              key={choice.value}
              className={cn(
                'flex cursor-pointer flex-col gap-2 rounded-xl px-4 py-3 ring-1 transition focus-within:ring-2 focus-within:ring-brand-600',
                checked
                  ? 'bg-brand-50 ring-2 ring-brand-600'
                  : 'bg-white ring-slate-200 hover:ring-slate-300',
              )}
            >
              <span
                className={cn(
                  'self-start rounded-full px-2 py-0.5 text-xs font-medium',
                  choice.value === 'official' ? 'bg-brand-100 text-brand-700' : 'bg-slate-100 text-slate-600',
                )}
              >
                {choice.tagline}
              </span>
              <span className="flex items-center gap-2">
                <input
                  type="radio"
                  name={`${platform}-connection`}
                  value={choice.value}
                  checked={checked}
                  onChange={() => onChange(choice.value)}
                  className="h-4 w-4 accent-brand-600"
                />
                <span className="font-semibold text-slate-900">{choice.title}</span>
              </span>
              <ul className="space-y-1.5 text-sm text-slate-600">
                {choice.points.map((point) => (
                  <li key={point} className="flex gap-2">
                    <Check
                      aria-hidden
                      className={cn(
                        'mt-0.5 size-4 shrink-0',
                        choice.value === 'official' ? 'text-emerald-600' : 'text-slate-400',
                      )}
                    />
                    {point}
                  </li>
                ))}
              </ul>
            </label>
          )
        })}
      </div>
      {value === 'official' && <p className="mt-3 text-sm text-slate-600">{OFFICIAL_NEXT[platform]}</p>}
    </fieldset>
  )
}
