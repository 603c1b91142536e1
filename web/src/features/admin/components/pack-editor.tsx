// A platform's facts pack, editable without a deploy: the pack in effect as JSON, Validate (the
// shape of the code default, each problem with its path), Try on canary (a canary run with the
// draft, followed here step by step), Publish (only the very draft whose try passed: a try that
// skipped a step publishes only once the operator confirms what was not checked), and Roll back to
// what was in effect before. Runners use a publication within a minute.

import type { CanaryRun, PackFacts, PackIssue, PackPlatform } from '@reachflow/domain'
import { parsePackText } from '@reachflow/domain'
import { CheckCircle2, FlaskConical, RotateCcw, Upload } from 'lucide-react'
import { useCallback, useEffect, useId, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { Textarea } from '@/components/ui/form-field'
import { useToast } from '@/components/ui/toast'
import { relativeTime } from '@/lib/relative-time'
import { getCanaryRun } from '../api/get-canary-run'
import { getPlatformPack } from '../api/get-platform-pack'
import { publishPack } from '../api/publish-pack'
import { rollbackPack } from '../api/rollback-pack'
import { tryPack } from '../api/try-pack'
import { validatePack } from '../api/validate-pack'
import { useAdminAction } from '../hooks/use-admin-action'
import { usePolling } from '../hooks/use-polling'
import { CanaryRunSteps, runOutcome, skippedSteps } from './canary-run-steps'
import { ConfirmDialog } from './confirm-dialog'
import { Pill } from './pill'
import { UncheckedSteps } from './unchecked-steps'

/** Keys in a stable order (the database keeps no order): the version first, the rest alphabetical. */
function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered)
  if (!value || typeof value !== 'object') return value
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
    a === 'version' ? -1 : b === 'version' ? 1 : a.localeCompare(b),
  )
  return Object.fromEntries(entries.map(([key, item]) => [key, ordered(item)]))
}

const pretty = (facts: PackFacts) => JSON.stringify(ordered(facts), null, 2)
const RUN_POLL_MS = 2_000

type Check = { kind: 'valid'; version: string | null } | { kind: 'invalid'; issues: PackIssue[] } | null

export function PackEditor({ platform, onChanged }: { platform: PackPlatform; onChanged: () => void }) {
  const load = useCallback(() => getPlatformPack(platform), [platform])
  const { data: view, refresh } = usePolling(load, { intervalMs: null, enabled: false })
  const [text, setText] = useState('')
  const [loadedFrom, setLoadedFrom] = useState<string | null>(null)
  const [check, setCheck] = useState<Check>(null)
  const [tried, setTried] = useState<{ packId: string; runId: string; text: string } | null>(null)
  const [run, setRun] = useState<CanaryRun | null>(null)
  const [confirmRollback, setConfirmRollback] = useState(false)
  const [confirmUnchecked, setConfirmUnchecked] = useState(false)
  const { run: act, isBusy } = useAdminAction()
  const toast = useToast()
  const editorId = useId()

  // The editor starts from the pack in effect, and follows it while nothing was typed.
  const effectiveKey = view?.effective ? `${view.effective.source}:${view.effective.packId}` : null
  useEffect(() => {
    if (!view?.effective || effectiveKey === loadedFrom) return
    setText(pretty(view.effective.facts))
    setLoadedFrom(effectiveKey)
    setCheck(null)
  }, [view, effectiveKey, loadedFrom])

  // A try is followed until its run has an outcome.
  useEffect(() => {
    if (!tried) return
    let live = true
    let timer: ReturnType<typeof setTimeout> | undefined
    const poll = async () => {
      try {
        const next = await getCanaryRun(tried.runId)
        if (!live) return
        setRun(next)
        if (next.status === 'queued' || next.status === 'running') timer = setTimeout(poll, RUN_POLL_MS)
      } catch (error) {
        console.error('Following the canary run failed', error)
        if (live) timer = setTimeout(poll, RUN_POLL_MS)
      }
    }
    void poll()
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [tried])

  const parsed = (): PackFacts | null => {
    const result = parsePackText(text)
    if (!result.ok) {
      setCheck({ kind: 'invalid', issues: [{ path: '', message: result.message }] })
      return null
    }
    if (typeof result.facts !== 'object' || result.facts === null || Array.isArray(result.facts)) {
      setCheck({ kind: 'invalid', issues: [{ path: '', message: 'The pack must be a JSON object' }] })
      return null
    }
    return result.facts as PackFacts
  }

  const [validating, setValidating] = useState(false)
  const validate = async () => {
    const facts = parsed()
    if (!facts) return
    // the answer shows under the editor, not as a toast
    setValidating(true)
    try {
      const answer = await validatePack(platform, facts)
      setCheck(
        answer.valid
          ? { kind: 'valid', version: answer.version }
          : { kind: 'invalid', issues: answer.issues },
      )
    } catch (error) {
      console.error('Validating the pack failed', error)
      toast.error((error as Error).message || 'An error occurred')
    } finally {
      setValidating(false)
    }
  }

  const tryIt = async () => {
    const facts = parsed()
    if (!facts) return
    const answer = await act('try', () => tryPack(platform, facts), 'The canary is trying the draft')
    if (!answer) return
    setCheck({ kind: 'valid', version: answer.version })
    setRun(null)
    setTried({ packId: answer.packId, runId: answer.runId, text })
  }

  const publish = async (unchecked?: string[]) => {
    if (!tried) return
    const answer = await act(
      'publish',
      () => publishPack(platform, tried.packId, unchecked),
      (v) => `Published ${v.effective?.version ?? ''}: runners use it within a minute`,
    )
    setConfirmUnchecked(false)
    if (!answer) return
    setTried(null)
    setRun(null)
    await refresh()
    onChanged()
  }

  const rollback = async () => {
    const answer = await act(
      'rollback',
      () => rollbackPack(platform),
      (v) => `Rolled back to ${v.effective?.version ?? 'the previous pack'}`,
    )
    setConfirmRollback(false)
    if (!answer) return
    setTried(null)
    setRun(null)
    await refresh()
    onChanged()
  }

  const canPublish = tried !== null && run?.status === 'passed' && tried.text === text
  // a skipped step checked nothing: Publish then asks the operator to confirm those steps by name
  const unchecked = run?.status === 'passed' ? skippedSteps(run) : []
  const onPublish = () => (unchecked.length > 0 ? setConfirmUnchecked(true) : void publish())
  const effective = view?.effective
  const rollbackTo = view?.rollbackTo
  return (
    <Card data-testid="pack-editor">
      <CardHeader className="space-y-1">
        <CardTitle>{view?.label ?? ''} platform pack</CardTitle>
        <p className="text-sm text-slate-500">
          {effective ? (
            <>
              In use: <span className="font-mono text-slate-800">{effective.version}</span>{' '}
              {effective.source === 'code'
                ? '(the code default)'
                : `(published${effective.publishedBy ? ` by ${effective.publishedBy}` : ''}${
                    effective.publishedAt ? ` ${relativeTime(effective.publishedAt).toLowerCase()}` : ''
                  })`}
              {view?.codeDefault && effective.source !== 'code' && (
                <>
                  {' '}
                  · code default <span className="font-mono">{view.codeDefault.version}</span>
                </>
              )}
            </>
          ) : (
            'No runner has registered its facts yet: start a runner to edit the pack.'
          )}
        </p>
      </CardHeader>
      <CardBody className="space-y-4">
        <div>
          <label htmlFor={editorId} className="block text-sm font-medium text-slate-700">
            Facts (JSON)
          </label>
          <p className="mt-0.5 text-xs text-slate-500">
            Same keys and kinds as the code default; regexes as {'{"source", "flags"}'}. Give a changed pack a
            new version.
          </p>
          <Textarea
            id={editorId}
            value={text}
            onChange={(e) => setText(e.target.value)}
            spellCheck={false}
            rows={18}
            aria-invalid={check?.kind === 'invalid' || undefined}
            className="mt-2 font-mono text-xs leading-5"
            disabled={!effective}
          />
        </div>

        {check?.kind === 'invalid' && (
          <div
            role="alert"
            className="rounded-xl bg-red-50 p-4 ring-1 ring-red-200 ring-inset"
            data-testid="pack-issues"
          >
            <p className="text-sm font-semibold text-red-800">
              {check.issues.length === 1 ? '1 problem' : `${check.issues.length} problems`}
            </p>
            <ul className="mt-2 space-y-1 text-sm text-red-800">
              {check.issues.map((issue) => (
                <li key={`${issue.path}:${issue.message}`} className="break-words">
                  {issue.message}
                </li>
              ))}
            </ul>
          </div>
        )}
        {check?.kind === 'valid' && (
          <p role="status" className="flex items-center gap-2 text-sm font-medium text-emerald-700">
            <CheckCircle2 className="size-4" aria-hidden="true" />
            Fits the facts{check.version ? ` (version ${check.version})` : ''}.
          </p>
        )}

        {tried && (
          <section
            aria-label="Canary try"
            aria-live="polite"
            className="rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200 ring-inset"
            data-testid="pack-try"
          >
            <p className="flex flex-wrap items-center gap-2 text-sm font-semibold text-slate-900">
              Canary try
              <Pill {...runOutcome(run)} />
              {tried.text !== text && (
                <span className="font-normal text-amber-700">The draft changed since: try it again.</span>
              )}
            </p>
            {run && <CanaryRunSteps run={run} className="mt-3" />}
            {unchecked.length > 0 && (
              <p className="mt-3 text-sm text-amber-800" data-testid="pack-try-unchecked">
                Not checked: {unchecked.map((step) => step.label).join(', ')}. Publishing needs every step
                run, or your confirmation of what was not checked.
              </p>
            )}
          </section>
        )}

        <div className="flex flex-col-reverse gap-2 border-t border-slate-100 pt-4 sm:flex-row sm:flex-wrap sm:justify-between">
          <Button
            variant="ghost"
            icon={<RotateCcw className="size-4 shrink-0" />}
            disabled={!rollbackTo}
            onClick={() => setConfirmRollback(true)}
            className="max-w-full min-w-0"
          >
            <span className="truncate">
              {rollbackTo
                ? `Roll back to ${rollbackTo.version ?? 'the previous pack'}${rollbackTo.source === 'code' ? ' (code default)' : ''}`
                : 'Roll back'}
            </span>
          </Button>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button
              variant="secondary"
              onClick={() => void validate()}
              loading={validating}
              disabled={!effective}
            >
              Validate
            </Button>
            <Button
              variant="secondary"
              icon={<FlaskConical className="size-4" />}
              onClick={() => void tryIt()}
              loading={isBusy('try')}
              disabled={!effective}
            >
              Try on canary
            </Button>
            <Button
              icon={<Upload className="size-4" />}
              onClick={onPublish}
              loading={isBusy('publish')}
              disabled={!canPublish}
              title={canPublish ? undefined : 'Publishing needs this draft to pass a canary try first'}
            >
              Publish
            </Button>
          </div>
        </div>
      </CardBody>
      <ConfirmDialog
        open={confirmUnchecked}
        title="Publish without every check?"
        confirmLabel="Publish unchecked"
        busy={isBusy('publish')}
        onConfirm={() => void publish(unchecked.map((step) => step.step))}
        onCancel={() => setConfirmUnchecked(false)}
      >
        <UncheckedSteps steps={unchecked} />
      </ConfirmDialog>
      <ConfirmDialog
        open={confirmRollback}
        title="Roll back the pack?"
        confirmLabel="Roll back"
        busy={isBusy('rollback')}
        onConfirm={() => void rollback()}
        onCancel={() => setConfirmRollback(false)}
      >
        Runners go back to {rollbackTo?.version ?? 'the previous pack'}
        {rollbackTo?.source === 'code' ? ' (the code default)' : ''} within a minute, and the canary checks it
        at once.
      </ConfirmDialog>
    </Card>
  )
}
