import { isRouteErrorResponse, Link, useRouteError } from 'react-router'
import { buttonClasses } from '@/components/ui/button'
import { paths } from '@/config/paths'

/** Last-resort screen when a route fails to load or render (e.g. a chunk after a deploy). */
export function RouteError() {
  const error = useRouteError()
  console.error('Route error', error)
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : 'An error occurred'
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 px-6 text-center">
      <h1 className="text-2xl font-bold text-slate-900">Something went wrong</h1>
      <p className="text-slate-600">{detail}. Please reload the page.</p>
      <div className="flex gap-3">
        <button
          type="button"
          className={buttonClasses('primary', 'md')}
          onClick={() => window.location.reload()}
        >
          Reload
        </button>
        <Link to={paths.home} className={buttonClasses('secondary', 'md')}>
          Back to Home
        </Link>
      </div>
    </main>
  )
}
