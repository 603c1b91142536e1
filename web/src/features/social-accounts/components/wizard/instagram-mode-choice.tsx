import { useMutation } from '@tanstack/react-query'
import { Check, ShieldCheck } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { startInstagramConnect } from '../../api/start-instagram-connect'

const OFFICIAL_POINTS = [
  'Reply to comments and DMs with automations',
  "No password stored: Instagram's own approved API",
  'Business or Creator accounts only',
]
const BROWSER_POINTS = [
  'Cold DM campaigns to scraped leads',
  'Any account, signed in with its password',
  'Paced like a person to keep the account safe',
]

/**
 * Instagram connects two ways: Instagram's official API (the customer signs in on Instagram and
 * allows Reachflow) or the browser sign-in of the rest of this wizard. The official path leaves
 * the app for Instagram's consent screen and comes back to the Accounts tab with the result.
 */
export function InstagramModeChoice({ canAdd }: { canAdd: boolean }) {
  const start = useMutation({
    mutationFn: startInstagramConnect,
    onSuccess: (url) => window.location.assign(url),
  })
  return (
    <section aria-labelledby="ig-mode-title" className="mt-5 space-y-3">
      <h3 id="ig-mode-title" className="text-sm font-semibold text-slate-900">
        How should Reachflow connect to Instagram?
      </h3>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="flex flex-col rounded-xl bg-white p-4 ring-2 ring-brand-600">
          <span className="self-start rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700">
            Recommended
          </span>
          <div className="mt-2 flex items-center gap-2">
            <ShieldCheck aria-hidden className="size-5 shrink-0 text-brand-600" />
            <span className="font-semibold text-slate-900">Official Instagram API</span>
          </div>
          <ul className="mt-3 flex-1 space-y-1.5 text-sm text-slate-600">
            {OFFICIAL_POINTS.map((point) => (
              <li key={point} className="flex gap-2">
                <Check aria-hidden className="mt-0.5 h-4 w-4 shrink-0 text-emerald-600" />
                {point}
              </li>
            ))}
          </ul>
          <Button
            className="mt-4 w-full"
            disabled={!canAdd}
            onClick={() => start.mutate()}
            loading={start.isPending || start.isSuccess}
            loadingText="Opening Instagram..."
          >
            Connect with Instagram
          </Button>
        </div>
        <div className="flex flex-col rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200">
          <span className="self-start rounded-full bg-slate-200/70 px-2 py-0.5 text-xs font-medium text-slate-600">
            For cold outreach
          </span>
          <span className="mt-2 font-semibold text-slate-900">Browser sign-in</span>
          <ul className="mt-3 flex-1 space-y-1.5 text-sm text-slate-600">
            {BROWSER_POINTS.map((point) => (
              <li key={point} className="flex gap-2">
                <Check aria-hidden className="mt-0.5 h-4 w-4 shrink-0 text-slate-400" />
                {point}
              </li>
            ))}
          </ul>
          <p className="mt-4 text-xs text-slate-500">
            Choose Next to enter the account's username and password.
          </p>
        </div>
      </div>
      {start.isError && (
        <p role="alert" className="text-sm text-red-700">
          {start.error.message}
        </p>
      )}
    </section>
  )
}
