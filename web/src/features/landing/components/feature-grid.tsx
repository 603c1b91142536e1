import {
  Bot,
  CalendarClock,
  Clock,
  Cloud,
  Filter,
  Headphones,
  History,
  LayoutDashboard,
  LineChart,
  Repeat,
  ShieldCheck,
  UsersRound,
} from 'lucide-react'

const items = [
  { icon: LayoutDashboard, label: 'Multi-account dashboard' },
  { icon: Filter, label: 'AI lead filtering' },
  { icon: UsersRound, label: 'Unlimited lead scraping' },
  { icon: Bot, label: 'AI message sequences' },
  { icon: Repeat, label: 'Automatic follow-ups' },
  { icon: CalendarClock, label: 'Scheduling with random days off' },
  { icon: LineChart, label: 'Campaign analytics' },
  { icon: ShieldCheck, label: 'Premium mobile proxies' },
  { icon: Cloud, label: 'Runs 24/7 in the cloud' },
  { icon: History, label: 'Unlimited message history' },
  { icon: Headphones, label: 'Priority founder support' },
  { icon: Clock, label: '5-minute setup' },
]

export function FeatureGrid() {
  return (
    <section aria-labelledby="grid-title" className="py-20 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <h2 id="grid-title" className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            Everything included, on every plan
          </h2>
          <p className="mt-4 text-lg text-slate-600">
            No add-ons, no credits to top up. Plus a private community of founders sharing what converts.
          </p>
        </div>
        <ul className="mt-14 grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4">
          {items.map(({ icon: Icon, label }) => (
            <li
              key={label}
              className="flex items-center gap-3 rounded-2xl border border-slate-200 bg-white p-4 text-sm font-medium text-slate-800"
            >
              <Icon className="size-5 shrink-0 text-brand-600" aria-hidden="true" />
              {label}
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}
