import { AlertCircle, RefreshCw } from 'lucide-react'
import { Button } from './button'

/** A read that failed: what went wrong and a way to try again. */
export function ErrorState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-3 rounded-2xl bg-red-50 px-6 py-10 text-center ring-1 ring-red-200"
    >
      <AlertCircle className="size-6 text-red-600" aria-hidden="true" />
      <p className="text-sm font-medium text-red-800">{message}</p>
      {onRetry && (
        <Button
          variant="secondary"
          size="sm"
          icon={<RefreshCw className="size-4" aria-hidden="true" />}
          onClick={onRetry}
        >
          Retry
        </Button>
      )}
    </div>
  )
}
