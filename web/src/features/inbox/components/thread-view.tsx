import { useMutation, useQueryClient } from '@tanstack/react-query'
import { ArrowLeft, CheckCircle2, Clock, RotateCcw, Send } from 'lucide-react'
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { Button } from '@/components/ui/button'
import { ErrorState } from '@/components/ui/error-state'
import { Textarea } from '@/components/ui/form-field'
import { SegmentedControl } from '@/components/ui/segmented-control'
import { Skeleton } from '@/components/ui/skeleton'
import { useToast } from '@/components/ui/toast'
import { queryRoots } from '@/lib/query-keys'
import { markThreadRead } from '../api/mark-thread-read'
import { retryAnswer } from '../api/retry-answer'
import { answerSchema, sendAnswer } from '../api/send-answer'
import { setThreadStatus } from '../api/set-thread-status'
import type { InboxAccount, InboxThread, WorkspacePerson } from '../api/types'
import { useInboxMessages, useThreadNotes } from '../hooks/use-inbox'
import { type AnswerWindow, instagramWindow } from '../instagram-window'
import { AssignControl } from './assign-control'
import { MessageBubble } from './message-bubble'
import { NoteCard } from './note-card'
import { NoteComposer } from './note-composer'
import { platformName } from './thread-list'
import { timeline } from './timeline'

const COMPOSER_MODES = [
  { value: 'answer', label: 'Answer' },
  { value: 'note', label: 'Internal note' },
] as const

/** The whole conversation with the team's notes, its assignee, Mark handled, and the answer box. */
export function ThreadView({
  thread,
  account,
  people,
  me,
  onBack,
  onHandled,
}: {
  thread: InboxThread
  account: InboxAccount | undefined
  people: readonly WorkspacePerson[]
  me: string | undefined
  onBack: () => void
  /** The conversation was marked handled: it leaves the view, as an archived mail does. */
  onHandled: () => void
}) {
  const queryClient = useQueryClient()
  const toast = useToast()
  const messages = useInboxMessages(thread.id)
  const notes = useThreadNotes(thread.id)
  const [mode, setMode] = useState<'answer' | 'note'>('answer')
  const [draft, setDraft] = useState('')
  const [draftError, setDraftError] = useState<string | null>(null)
  const scrollRef = useRef<HTMLDivElement>(null)
  const headingRef = useRef<HTMLHeadingElement>(null)
  // Keyboard and screen-reader users land on the conversation they opened.
  useEffect(() => {
    headingRef.current?.focus({ preventScroll: true })
  }, [])
  const fieldId = useId()
  const refresh = () => queryClient.invalidateQueries({ queryKey: [queryRoots.inbox] })

  // Opening the conversation reads its replies (and any that arrive while it is open).
  const { mutate: markRead } = useMutation({ mutationFn: markThreadRead, onSuccess: refresh })
  useEffect(() => {
    if (thread.unread_count > 0) markRead(thread.id)
  }, [thread.id, thread.unread_count, markRead])

  const count = (messages.data?.length ?? 0) + (notes.data?.length ?? 0)
  // The newest message in view, scrolling only the conversation (never the page around it).
  useEffect(() => {
    const box = scrollRef.current
    if (box && count > 0) box.scrollTop = box.scrollHeight
  }, [count])

  const send = useMutation({
    mutationFn: (body: string) => sendAnswer(thread.id, body),
    onSuccess: () => {
      setDraft('')
      void refresh()
    },
    onError: (error) => setDraftError(error.message),
  })
  const retry = useMutation({
    mutationFn: retryAnswer,
    onSuccess: refresh,
    onError: (error) => toast.error(error.message),
  })
  const status = useMutation({
    mutationFn: (next: 'open' | 'handled') => setThreadStatus(thread.id, next),
    onSuccess: (_data, next) => {
      toast.success(next === 'handled' ? `@${thread.peer_username} marked handled` : 'Reopened')
      void refresh()
      if (next === 'handled') onHandled()
    },
    onError: (error) => toast.error(error.message),
  })

  const submit = (event?: FormEvent) => {
    event?.preventDefault()
    const parsed = answerSchema.safeParse(draft)
    if (!parsed.success) {
      setDraftError(parsed.error.issues[0]?.message ?? 'Write a message first.')
      return
    }
    setDraftError(null)
    send.mutate(parsed.data)
  }

  const answerWindow = useInstagramWindow(thread)
  const accountActive = account?.status === 'active'
  const canSend = accountActive && answerWindow?.state !== 'closed'
  const handled = thread.status === 'handled'

  return (
    <section
      aria-label={`Conversation with @${thread.peer_username}`}
      className="flex h-full min-h-0 flex-col"
    >
      <header className="flex flex-wrap items-center gap-x-3 gap-y-2 border-b border-slate-200 px-4 py-3">
        <button
          type="button"
          onClick={onBack}
          aria-label="Back to conversations"
          className="-ml-1 rounded-lg p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-800 lg:hidden"
        >
          <ArrowLeft className="size-5" aria-hidden="true" />
        </button>
        <div className="min-w-0 flex-1">
          <h3
            ref={headingRef}
            tabIndex={-1}
            className="truncate text-base font-semibold text-slate-900 focus:outline-none"
          >
            @{thread.peer_username}
          </h3>
          <p className="truncate text-xs text-slate-500">
            via @{thread.account?.username ?? 'deleted account'}
            {thread.account && ` on ${platformName(thread.account.platform)}`}
            {thread.campaign_name && ` · ${thread.campaign_name}`}
          </p>
        </div>
        <Button
          variant="secondary"
          size="sm"
          loading={status.isPending}
          onClick={() => status.mutate(handled ? 'open' : 'handled')}
          icon={
            handled ? (
              <RotateCcw className="size-4" aria-hidden="true" />
            ) : (
              <CheckCircle2 className="size-4" aria-hidden="true" />
            )
          }
        >
          {handled ? 'Reopen' : 'Mark handled'}
        </Button>
        {/* its own row, so the person's name is never squeezed out by it */}
        <div className="basis-full">
          <AssignControl thread={thread} people={people} me={me} />
        </div>
      </header>

      <div ref={scrollRef} className="min-h-0 flex-1 overflow-y-auto bg-slate-50/70 px-4 py-4">
        {messages.isError ? (
          <ErrorState message={messages.error.message} onRetry={() => void messages.refetch()} />
        ) : messages.isPending ? (
          <div className="space-y-3" role="status" aria-label="Loading the conversation">
            <Skeleton className="h-10 w-2/3" />
            <Skeleton className="ml-auto h-10 w-1/2" />
            <Skeleton className="h-10 w-3/5" />
          </div>
        ) : (
          <ol aria-label="Messages" className="space-y-3">
            {timeline(messages.data, notes.data ?? []).map((item) =>
              item.kind === 'message' ? (
                <MessageBubble
                  key={item.message.id}
                  message={item.message}
                  retrying={retry.isPending && retry.variables === item.message.id}
                  onRetry={() => retry.mutate(item.message.id)}
                />
              ) : (
                <NoteCard key={item.note.id} note={item.note} threadId={thread.id} people={people} me={me} />
              ),
            )}
          </ol>
        )}
      </div>

      <div className="border-t border-slate-200 bg-white px-4 pt-3">
        <SegmentedControl label="Write" options={COMPOSER_MODES} value={mode} onChange={setMode} />
      </div>
      {mode === 'note' ? (
        <div className="bg-white px-4 py-3">
          <NoteComposer threadId={thread.id} peer={thread.peer_username} />
        </div>
      ) : (
        <form onSubmit={submit} className="bg-white px-4 py-3">
          {answerWindow && <WindowHint id={`${fieldId}-window`} window={answerWindow} />}
          <label htmlFor={fieldId} className="sr-only">
            Your answer to @{thread.peer_username}
          </label>
          <Textarea
            id={fieldId}
            rows={2}
            value={draft}
            placeholder={
              canSend
                ? `Answer @${thread.peer_username}…`
                : accountActive
                  ? "Instagram's answer window is closed"
                  : 'The account cannot send right now'
            }
            disabled={!canSend}
            aria-invalid={draftError ? true : undefined}
            aria-describedby={answerWindow ? `${fieldId}-window ${fieldId}-help` : `${fieldId}-help`}
            onChange={(event) => {
              setDraft(event.target.value)
              if (draftError) setDraftError(null)
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) submit()
            }}
            className="resize-none"
          />
          <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
            <p
              id={`${fieldId}-help`}
              className={draftError ? 'text-xs font-medium text-red-600' : 'text-xs text-slate-500'}
            >
              {draftError ??
                (canSend
                  ? answerWindow
                    ? `Sent by @${account?.username} through Instagram's API, once. Ctrl+Enter sends.`
                    : `Sent by @${account?.username} at a safe pace, once. Ctrl+Enter sends.`
                  : accountActive
                    ? 'Nothing can be sent in this conversation until they write again.'
                    : `@${thread.account?.username ?? 'The account'} is ${account?.status ?? 'gone'}: fix it in Social Accounts to answer.`)}
            </p>
            <Button
              type="submit"
              size="sm"
              loading={send.isPending}
              disabled={!canSend}
              icon={<Send className="size-4" aria-hidden="true" />}
            >
              Send
            </Button>
          </div>
        </form>
      )}
    </section>
  )
}

/** An official Instagram thread's answer window, recomputed every minute; null for any other thread. */
function useInstagramWindow(thread: InboxThread): AnswerWindow | null {
  const official = thread.account?.platform === 'instagram' && thread.account.connection === 'official'
  const [now, setNow] = useState(() => new Date())
  useEffect(() => {
    if (!official) return
    const timer = setInterval(() => setNow(new Date()), 60_000)
    return () => clearInterval(timer)
  }, [official])
  return official ? instagramWindow(thread.peer_username, thread.last_incoming_at, now) : null
}

function WindowHint({ id, window }: { id: string; window: AnswerWindow }) {
  const tone =
    window.state === 'standard'
      ? 'border-emerald-200 bg-emerald-50 text-emerald-800'
      : window.state === 'human_agent'
        ? 'border-amber-200 bg-amber-50 text-amber-800'
        : 'border-slate-200 bg-slate-100 text-slate-700'
  return (
    <p
      id={id}
      data-testid="answer-window"
      className={`mb-2 flex items-start gap-2 rounded-lg border px-3 py-2 text-xs ${tone}`}
    >
      <Clock className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
      <span>{window.text}</span>
    </p>
  )
}
