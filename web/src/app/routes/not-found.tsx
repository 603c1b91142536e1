import { Link } from 'react-router'
import { buttonClasses } from '@/components/ui/button'
import { Logo } from '@/components/ui/logo'
import { paths } from '@/config/paths'

export function NotFoundRoute() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 px-6 text-center">
      <Logo />
      <div>
        <p className="text-sm font-semibold text-brand-600">404</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900">Page not found</h1>
        <p className="mt-3 text-slate-600">The page you are looking for does not exist or has moved.</p>
      </div>
      <Link to={paths.home} className={buttonClasses('primary', 'md')}>
        Back to Home
      </Link>
    </main>
  )
}
