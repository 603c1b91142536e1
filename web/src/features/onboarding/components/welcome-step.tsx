import { ArrowRight, CalendarClock, Filter, MessagesSquare } from 'lucide-react'
import { Button } from '@/components/ui/button'

const highlights = [
  { icon: Filter, text: 'Find prospects who match your ideal customer' },
  { icon: MessagesSquare, text: 'Send personalised DM sequences with follow-ups' },
  { icon: CalendarClock, text: 'Run around the clock on a schedule you control' },
]

/** The first word of the full name, or null for the generic greeting. */
export function firstName(fullName: string | null | undefined): string | null {
  const first = (fullName ?? '').trim().split(/\s+/)[0]
  return first ? first : null
}

export function WelcomeStep({
  fullName,
  onNext,
}: {
  fullName: string | null | undefined
  onNext: () => void
}) {
  const name = firstName(fullName)
  return (
    <div className="text-center">
      <h2 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
        {name ? `Welcome, ${name}!` : 'Welcome to Reachflow!'}
      </h2>
      <p className="mx-auto mt-4 max-w-xl text-lg text-slate-600">
        In the next two minutes we will tailor Reachflow to what you want to achieve, then you can start your
        free trial and launch your first campaign.
      </p>
      <ul className="mx-auto mt-8 grid max-w-2xl gap-3 text-left sm:grid-cols-3">
        {highlights.map(({ icon: Icon, text }) => (
          <li key={text} className="rounded-xl bg-slate-50 p-4 text-sm text-slate-700 ring-1 ring-slate-200">
            <Icon className="mb-2 size-5 text-brand-600" aria-hidden="true" />
            {text}
          </li>
        ))}
      </ul>
      <Button size="lg" className="mt-10" onClick={onNext}>
        Let's Get Started
        <ArrowRight className="size-4" aria-hidden="true" />
      </Button>
    </div>
  )
}
