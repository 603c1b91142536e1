import { BarChart3, CalendarClock, Filter, LayoutDashboard, MessagesSquare, UsersRound } from 'lucide-react'

const features = [
  {
    icon: LayoutDashboard,
    title: 'Every account, one dashboard',
    text: 'Connect as many X and Instagram accounts as you need and run them all from one place. Each account gets its own premium mobile proxy.',
  },
  {
    icon: Filter,
    title: 'AI lead filtering',
    text: 'Describe who you want to reach. Filters on keywords, follower count, engagement and bio keep only prospects who fit.',
  },
  {
    icon: UsersRound,
    title: 'Unlimited lead scraping',
    text: "Pull prospects from competitors' followers, hashtag posts or keyword searches, as many as your campaigns need.",
  },
  {
    icon: MessagesSquare,
    title: 'AI message sequences',
    text: 'Personalised openers and follow-ups written in your voice. Follow-ups stop automatically the moment someone replies.',
  },
  {
    icon: CalendarClock,
    title: 'Human-like scheduling',
    text: 'Choose days, hours and timezone. Random gaps and random days off keep your sending pattern natural.',
  },
  {
    icon: BarChart3,
    title: 'Analytics that matter',
    text: 'Messages sent, response rate and new leads per campaign, so you know which message wins and where to double down.',
  },
]

export function FeaturesSection() {
  return (
    <section id="features" aria-labelledby="features-title" className="py-20 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">Features</p>
          <h2
            id="features-title"
            className="mt-3 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl"
          >
            Your outreach team, running 24/7 in the cloud
          </h2>
          <p className="mt-4 text-lg text-slate-600">
            Reachflow does the finding, filtering, writing, sending and following up. You answer the replies.
          </p>
        </div>
        <div className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {features.map(({ icon: Icon, title, text }) => (
            <div
              key={title}
              className="group rounded-2xl border border-slate-200 bg-white p-6 shadow-card transition hover:-translate-y-0.5 hover:shadow-lift"
            >
              <span className="inline-flex size-11 items-center justify-center rounded-xl bg-brand-50 text-brand-600 ring-1 ring-brand-100">
                <Icon className="size-6" aria-hidden="true" />
              </span>
              <h3 className="mt-5 text-lg font-semibold text-slate-900">{title}</h3>
              <p className="mt-2 leading-7 text-slate-600">{text}</p>
            </div>
          ))}
        </div>
      </div>
    </section>
  )
}
