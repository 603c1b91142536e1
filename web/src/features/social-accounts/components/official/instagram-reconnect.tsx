import { useMutation } from '@tanstack/react-query'
import { RefreshCw } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { startInstagramConnect } from '../../api/start-instagram-connect'

/**
 * An official Instagram account whose access Instagram no longer accepts (removed by the person,
 * or expired): connecting it again through Instagram renews the token and makes it active again.
 */
export function InstagramReconnect({ username }: { username: string }) {
  const start = useMutation({
    mutationFn: startInstagramConnect,
    onSuccess: (url) => window.location.assign(url),
  })
  return (
    <div className="mt-4">
      <Button
        size="sm"
        className="w-full"
        onClick={() => start.mutate()}
        loading={start.isPending || start.isSuccess}
        loadingText="Opening Instagram..."
        aria-label={`Connect @${username} again through Instagram`}
        icon={<RefreshCw className="size-4" aria-hidden="true" />}
      >
        Connect again
      </Button>
      {start.isError && (
        <p role="alert" className="mt-2 text-xs text-red-700">
          {start.error.message}
        </p>
      )}
    </div>
  )
}
