// PLACEHOLDER — issue 9 (Operator admin) replaces this file with the admin dashboard.
// It only keeps the guarded /admin route in the table until then; no admin data is shown.
import { AppHeader } from '@/components/layouts/app-header'

export default function AdminRoute() {
  return (
    <div className="min-h-screen bg-slate-50">
      <AppHeader />
      <main className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <h1 className="text-2xl font-bold text-slate-900">Admin Dashboard</h1>
        <p className="mt-2 text-slate-600" data-placeholder="issue-9">
          The admin dashboard is being built (issue 9).
        </p>
      </main>
    </div>
  )
}
