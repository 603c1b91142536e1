import { Clock3, ShieldAlert, TrendingDown } from 'lucide-react'

const problems = [
  {
    icon: Clock3,
    title: 'Hours lost to copy-paste',
    text: 'Finding prospects, checking their profiles and typing the same opener again and again eats the time you should spend closing.',
  },
  {
    icon: TrendingDown,
    title: 'Leads go cold without follow-ups',
    text: 'Most replies come after the second or third message. Done by hand, follow-ups slip, and warm conversations quietly die.',
  },
  {
    icon: ShieldAlert,
    title: 'Cheap tools put accounts at risk',
    text: 'Browser extensions blast messages from your laptop IP with robotic timing. One flag and your best account is gone.',
  },
]

export function ProblemSection() {
  return (
    <section aria-labelledby="problem-title" className="bg-slate-950 py-20 text-white sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-brand-300 uppercase">The problem</p>
          <h2 id="problem-title" className="mt-3 text-3xl font-bold tracking-tight sm:text-4xl">
            Manual DM outreach does not scale
          </h2>
          <p className="mt-4 text-lg text-slate-300">
            Direct messages are still the fastest way to start a sales conversation. Doing them by hand is the
            slowest way to grow.
          </p>
        </div>
        <div className="mt-14 grid gap-6 md:grid-cols-3">
          {problems.map(({ icon: Icon, title, text }) => (
            <div key={title} className="rounded-2xl bg-white/5 p-6 ring-1 ring-white/10">
              <span className="inline-flex size-11 items-center justify-center rounded-xl bg-red-500/15 text-red-300">
                <Icon className="size-6" aria-hidden="true" />
              </span>
              <h3 className="mt-5 text-lg font-semibold">{title}</h3>
              <p className="mt-2 leading-7 text-slate-300">{text}</p>
            </div>
          ))}
        </div>
      </div>
    </section>
  )
}
