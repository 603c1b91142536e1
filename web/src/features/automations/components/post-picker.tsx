import { useQuery } from '@tanstack/react-query'
import { Clapperboard, ExternalLink, Image } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { cn } from '@/lib/cn'
import { getAccountMedia } from '../api/get-account-media'
import { automationKeys } from '../api/types'

const dateOf = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' }) : ''

/** The account's latest posts and reels as radio buttons (arrow keys move between them). */
export function PostPicker({
  accountId,
  value,
  onChange,
  invalid,
  describedBy,
}: {
  accountId: string
  value: string
  onChange: (mediaId: string) => void
  invalid: boolean
  describedBy?: string
}) {
  const media = useQuery({
    queryKey: automationKeys.media(accountId),
    queryFn: () => getAccountMedia(accountId),
    enabled: Boolean(accountId),
    staleTime: 60_000,
    retry: false,
  })
  if (!accountId) return <p className="text-sm text-slate-500">Choose the account first.</p>
  if (media.isPending)
    return (
      <p className="flex items-center gap-2 py-3 text-sm text-slate-500">
        <Spinner size={16} label="" />
        Loading your posts…
      </p>
    )
  if (media.isError)
    return (
      <div role="alert" className="rounded-lg bg-red-50 px-3 py-2.5 text-sm text-red-700 ring-1 ring-red-200">
        <p>{media.error.message}</p>
        <Button variant="secondary" size="sm" className="mt-2" onClick={() => void media.refetch()}>
          Retry
        </Button>
      </div>
    )
  // a post chosen before may be older than the latest ones listed: it stays choosable
  const posts =
    value && !media.data.some((m) => m.id === value)
      ? [
          {
            id: value,
            caption: 'A post chosen before (not among the latest)',
            kind: 'post' as const,
            permalink: null,
            postedAt: null,
          },
          ...media.data,
        ]
      : media.data
  if (posts.length === 0)
    return (
      <p className="rounded-lg bg-slate-50 px-3 py-2.5 text-sm text-slate-600 ring-1 ring-slate-200">
        This account has no posts or reels yet. Publish one on Instagram, or choose "Any post or reel".
      </p>
    )
  return (
    <fieldset
      aria-describedby={describedBy}
      aria-invalid={invalid}
      className={cn(
        'max-h-64 divide-y divide-slate-100 overflow-y-auto rounded-lg ring-1 ring-slate-200',
        invalid && 'ring-red-400',
      )}
    >
      <legend className="sr-only">Post or reel</legend>
      {posts.map((post) => {
        const Icon = post.kind === 'reel' ? Clapperboard : Image
        const checked = post.id === value
        return (
          <label
            key={post.id}
            className={cn(
              'flex cursor-pointer items-start gap-3 px-3 py-2.5 hover:bg-slate-50 has-[:focus-visible]:bg-brand-50',
              checked && 'bg-brand-50/70',
            )}
          >
            <input
              type="radio"
              name={`post-${accountId}`}
              value={post.id}
              checked={checked}
              onChange={() => onChange(post.id)}
              className="mt-1 size-4 shrink-0 accent-brand-600"
            />
            <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-slate-100 text-slate-500">
              <Icon className="size-4.5" aria-hidden="true" />
            </span>
            <span className="min-w-0 flex-1">
              <span className="line-clamp-2 text-sm text-slate-800">{post.caption || 'No caption'}</span>
              <span className="mt-0.5 flex items-center gap-1.5 text-xs text-slate-500">
                {post.kind === 'reel' ? 'Reel' : 'Post'}
                {post.postedAt && (
                  <>
                    <span aria-hidden="true">·</span>
                    <span>{dateOf(post.postedAt)}</span>
                  </>
                )}
                {post.permalink && (
                  <a
                    href={post.permalink}
                    target="_blank"
                    rel="noreferrer"
                    className="inline-flex items-center gap-0.5 text-brand-700 hover:underline"
                    onClick={(e) => e.stopPropagation()}
                  >
                    View
                    <ExternalLink className="size-3" aria-hidden="true" />
                    <span className="sr-only">on Instagram</span>
                  </a>
                )}
              </span>
            </span>
          </label>
        )
      })}
    </fieldset>
  )
}
