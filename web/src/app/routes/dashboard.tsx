// PLACEHOLDER — issue 7 (Web app, part 2) replaces this file with the real dashboard
// (sidebar, four tabs, wizards, detail views). It only exists so the guarded route, the
// onboarding wizard and the setup modal can be used before that lands. No dashboard data is shown.
import { CreditCard, Settings } from 'lucide-react'
import { Link } from 'react-router'
import { AppHeader } from '@/components/layouts/app-header'
import { buttonClasses } from '@/components/ui/button'
import { paths } from '@/config/paths'

export default function DashboardRoute() {
  return (
    <div className="min-h-screen bg-slate-50">
      <AppHeader />
      <main className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <h1 className="text-2xl font-bold text-slate-900">Dashboard</h1>
        <p className="mt-2 text-slate-600" data-placeholder="issue-7">
          The dashboard is being built (issue 7). Your profile and billing are ready:
        </p>
        <div className="mt-6 flex flex-wrap gap-3">
          <Link to={paths.settings} className={buttonClasses('secondary', 'md')}>
            <Settings className="size-4" aria-hidden="true" />
            Settings
          </Link>
          <Link to={paths.billing} className={buttonClasses('secondary', 'md')}>
            <CreditCard className="size-4" aria-hidden="true" />
            Billing
          </Link>
        </div>
      </main>
    </div>
  )
}
