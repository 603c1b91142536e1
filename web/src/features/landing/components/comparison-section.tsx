import { CheckCircle2, XCircle } from 'lucide-react'

const oldWay = [
  'Scrolling profiles for hours to find a handful of prospects',
  'Copy-pasting the same message and hoping it lands',
  'Forgetting follow-ups, losing half the replies you could have had',
  'Risking your account with laptop IPs and robotic timing',
  'Guessing which message works',
]

const newWay = [
  'AI-filtered prospects scraped for you, unlimited',
  'Personalised sequences that sound like you wrote each one',
  'Automatic follow-ups that stop the moment someone replies',
  'Premium mobile proxies, warm-up and human-like schedules',
  'Clear analytics on messages sent, response rate and new leads',
]

export function ComparisonSection() {
  return (
    <section aria-labelledby="comparison-title" className="bg-slate-50 py-20 sm:py-28">
      <div className="mx-auto max-w-6xl px-4 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">Old way vs new way</p>
          <h2
            id="comparison-title"
            className="mt-3 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl"
          >
            Stop doing outreach like it is 2015
          </h2>
        </div>
        <div className="mt-14 grid gap-6 md:grid-cols-2">
          <div className="rounded-3xl bg-white p-8 ring-1 ring-slate-200">
            <h3 className="text-lg font-semibold text-slate-500">The old way</h3>
            <ul className="mt-6 space-y-4">
              {oldWay.map((item) => (
                <li key={item} className="flex gap-3 text-slate-600">
                  <XCircle className="mt-0.5 size-5 shrink-0 text-red-400" aria-hidden="true" />
                  {item}
                </li>
              ))}
            </ul>
          </div>
          <div className="rounded-3xl bg-white p-8 shadow-lift ring-2 ring-brand-500">
            <h3 className="text-lg font-semibold text-brand-700">The Reachflow way</h3>
            <ul className="mt-6 space-y-4">
              {newWay.map((item) => (
                <li key={item} className="flex gap-3 text-slate-800">
                  <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-emerald-500" aria-hidden="true" />
                  {item}
                </li>
              ))}
            </ul>
          </div>
        </div>
      </div>
    </section>
  )
}
