import { BarChart3, Megaphone, Search, UsersRound } from 'lucide-react'
import { StatusBadge } from '@/components/ui/status-badge'

// A static picture of the product built from markup (sharp at every width, no image to load).
const stats = [
  { label: 'Messages Sent', value: '12,480', change: '+18%' },
  { label: 'Delivery Rate', value: '98.6%', change: '+2.1%' },
  { label: 'Active Accounts', value: '6', change: '+2' },
  { label: 'Active Campaigns', value: '4', change: '+1' },
]

const campaigns = [
  { name: 'SaaS founders, US', stage: 'Follow-up 2', status: 'running', progress: 72 },
  { name: 'Agency owners, UK', stage: 'Opener', status: 'running', progress: 41 },
  { name: 'E-commerce brands', stage: 'Completed', status: 'completed', progress: 100 },
]

const navItems = [
  { icon: Megaphone, label: 'Campaigns' },
  { icon: UsersRound, label: 'Leads' },
  { icon: BarChart3, label: 'Social Accounts' },
  { icon: Search, label: 'Lead Scraping' },
]

export function DashboardPreview() {
  return (
    <section
      aria-labelledby="preview-title"
      className="bg-gradient-to-b from-white to-slate-50 py-20 sm:py-28"
    >
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">Dashboard</p>
          <h2
            id="preview-title"
            className="mt-3 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl"
          >
            See every conversation you started today
          </h2>
          <p className="mt-4 text-lg text-slate-600">
            Campaigns, leads, accounts and scraping jobs side by side, with the numbers that tell you what is
            working.
          </p>
        </div>
        <figure
          className="mx-auto mt-14 max-w-5xl overflow-hidden rounded-2xl bg-white shadow-2xl ring-1 ring-slate-200"
          aria-label="Preview of the Reachflow dashboard"
        >
          <div
            className="flex items-center gap-1.5 border-b border-slate-100 bg-slate-50 px-4 py-3"
            aria-hidden="true"
          >
            <span className="size-3 rounded-full bg-red-300" />
            <span className="size-3 rounded-full bg-amber-300" />
            <span className="size-3 rounded-full bg-emerald-300" />
          </div>
          <div className="grid md:grid-cols-[13rem_1fr]">
            <ul className="hidden border-r border-slate-100 p-4 md:block" aria-hidden="true">
              {navItems.map(({ icon: Icon, label }, index) => (
                <li
                  key={label}
                  className={`flex items-center gap-2 rounded-lg px-3 py-2 text-sm ${index === 0 ? 'bg-brand-50 font-semibold text-brand-700' : 'text-slate-600'}`}
                >
                  <Icon className="size-4" />
                  {label}
                </li>
              ))}
            </ul>
            <div className="space-y-5 p-4 sm:p-6">
              <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
                {stats.map((stat) => (
                  <div key={stat.label} className="rounded-xl border border-slate-100 p-4">
                    <dt className="text-xs font-medium text-slate-500">{stat.label}</dt>
                    <dd className="mt-1 text-xl font-bold text-slate-900">{stat.value}</dd>
                    <dd className="text-xs font-semibold text-emerald-700">{stat.change}</dd>
                  </div>
                ))}
              </dl>
              <ul className="divide-y divide-slate-100 rounded-xl border border-slate-100">
                {campaigns.map((campaign) => (
                  <li key={campaign.name} className="flex flex-wrap items-center gap-3 px-4 py-3">
                    <div className="min-w-0 flex-1">
                      <p className="truncate text-sm font-semibold text-slate-900">{campaign.name}</p>
                      <p className="text-xs text-slate-500">{campaign.stage}</p>
                    </div>
                    <div className="hidden w-32 sm:block" aria-hidden="true">
                      <div className="h-1.5 rounded-full bg-slate-100">
                        <div
                          className="h-1.5 rounded-full bg-brand-500"
                          style={{ width: `${campaign.progress}%` }}
                        />
                      </div>
                    </div>
                    <StatusBadge status={campaign.status} />
                  </li>
                ))}
              </ul>
            </div>
          </div>
        </figure>
      </div>
    </section>
  )
}
