import { AlertCircle, Check, Clock, Eye, RotateCcw } from 'lucide-react'
import { Spinner } from '@/components/ui/spinner'
import { cn } from '@/lib/cn'
import type { InboxMessage } from '../api/types'

const time = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

function when(message: InboxMessage): string {
  return time.format(new Date(message.sent_at ?? message.created_at))
}

/** What became of an answer sent from Reachflow, in words. */
function AnswerStatus({
  message,
  onRetry,
  retrying,
}: {
  message: InboxMessage
  onRetry: () => void
  retrying: boolean
}) {
  switch (message.status) {
    case 'queued':
      return (
        <span className="inline-flex items-center gap-1 text-slate-500">
          <Clock className="size-3.5" aria-hidden="true" /> Queued
        </span>
      )
    case 'sending':
      return (
        <span className="inline-flex items-center gap-1 text-slate-500">
          <Spinner size={16} label="" /> Sending…
        </span>
      )
    case 'sent':
      return (
        <span className="inline-flex items-center gap-1 text-emerald-700">
          <Check className="size-3.5" aria-hidden="true" /> Sent
        </span>
      )
    case 'uncertain':
      return (
        <span className="inline-flex items-center gap-1 text-amber-700">
          <AlertCircle className="size-3.5" aria-hidden="true" /> Not confirmed yet: the conversation is
          checked before anything is sent again
        </span>
      )
    case 'failed':
      return (
        <span className="flex flex-col items-end gap-1 text-red-700">
          <span className="inline-flex items-start gap-1 text-right">
            <AlertCircle className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
            <span>Failed: {message.error ?? 'not sent'}</span>
          </span>
          <button
            type="button"
            onClick={onRetry}
            disabled={retrying}
            className="inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 font-medium text-brand-700 hover:bg-brand-50 disabled:opacity-60"
          >
            <RotateCcw className="size-3.5" aria-hidden="true" /> Send again
          </button>
        </span>
      )
    default:
      return null
  }
}

/** One message: theirs on the left, ours on the right with its delivery status. */
export function MessageBubble({
  message,
  onRetry,
  retrying,
}: {
  message: InboxMessage
  onRetry: () => void
  retrying: boolean
}) {
  const outgoing = message.direction === 'outgoing'
  return (
    <li
      data-testid="inbox-message"
      data-direction={message.direction}
      data-status={message.status}
      className={cn('flex flex-col gap-1', outgoing ? 'items-end' : 'items-start')}
    >
      <div
        className={cn(
          'max-w-[85%] rounded-2xl px-3.5 py-2 text-sm whitespace-pre-wrap break-words shadow-sm sm:max-w-[75%]',
          outgoing
            ? 'rounded-br-md bg-brand-600 text-white'
            : 'rounded-bl-md bg-white text-slate-900 ring-1 ring-slate-200',
          message.status === 'failed' && 'bg-red-50 text-red-900 ring-1 ring-red-200',
        )}
      >
        <span className="sr-only">{outgoing ? 'You: ' : 'Them: '}</span>
        {message.body}
      </div>
      <div className="flex items-center gap-2 px-1 text-xs text-slate-500">
        <time dateTime={message.sent_at ?? message.created_at}>{when(message)}</time>
        {message.read_on_platform && (
          <span className="inline-flex items-center gap-0.5" title="You read this on the platform">
            <Eye className="size-3" aria-hidden="true" /> Read on the platform
          </span>
        )}
        {outgoing && message.origin === 'reachflow' && (
          <AnswerStatus message={message} onRetry={onRetry} retrying={retrying} />
        )}
      </div>
    </li>
  )
}
