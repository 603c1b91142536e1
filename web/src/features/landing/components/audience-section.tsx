import { Briefcase, Building2, Rocket } from 'lucide-react'

const audiences = [
  {
    icon: Briefcase,
    title: 'Sales & marketing professionals',
    text: 'Keep your pipeline full without living in your inbox. Reachflow opens the conversations, you run the calls.',
  },
  {
    icon: Rocket,
    title: 'Entrepreneurs & founders',
    text: 'Land your first hundred customers with founder-led outreach that keeps going while you build the product.',
  },
  {
    icon: Building2,
    title: 'Agencies & teams',
    text: 'Run outreach for every client from one dashboard, with separate accounts, campaigns and results for each.',
  },
]

export function AudienceSection() {
  return (
    <section aria-labelledby="audience-title" className="py-20 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">Who it is for</p>
          <h2
            id="audience-title"
            className="mt-3 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl"
          >
            Built for people who sell in the DMs
          </h2>
        </div>
        <div className="mt-14 grid gap-6 md:grid-cols-3">
          {audiences.map(({ icon: Icon, title, text }) => (
            <div key={title} className="rounded-2xl bg-slate-50 p-8 ring-1 ring-slate-200/70">
              <Icon className="size-8 text-brand-600" aria-hidden="true" />
              <h3 className="mt-5 text-lg font-semibold text-slate-900">{title}</h3>
              <p className="mt-2 leading-7 text-slate-600">{text}</p>
            </div>
          ))}
        </div>
      </div>
    </section>
  )
}
