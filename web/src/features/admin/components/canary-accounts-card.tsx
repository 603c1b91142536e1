// The canary's accounts and what it opens on one platform. Operators choose among active accounts
// (their own first, customers' too: the canary only reads, never sends), may name the known thread
// it opens (otherwise the newest conversation with nothing unread), and set the profile, the
// search and how often it runs.

import type { CanaryCandidate, CanarySettings, PackPlatform } from '@reachflow/domain'
import { Plus, Trash2 } from 'lucide-react'
import { type FormEvent, useCallback, useEffect, useId, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { Field, Input } from '@/components/ui/form-field'
import { relativeTime } from '@/lib/relative-time'
import { chooseCanaryAccount } from '../api/choose-canary-account'
import { getCanary } from '../api/get-canary'
import { getCanaryCandidates } from '../api/get-canary-candidates'
import { removeCanaryAccount } from '../api/remove-canary-account'
import { saveCanarySettings } from '../api/save-canary-settings'
import { useAdminAction } from '../hooks/use-admin-action'
import { usePolling } from '../hooks/use-polling'
import { Pill } from './pill'
import { SearchBox } from './search-box'

export function CanaryAccountsCard({
  platform,
  onChanged,
}: {
  platform: PackPlatform
  onChanged: () => void
}) {
  const load = useCallback(() => getCanary(platform), [platform])
  const { data, refresh } = usePolling(load, { intervalMs: null, enabled: false })
  const { run, isBusy } = useAdminAction()
  const [query, setQuery] = useState('')
  const [candidates, setCandidates] = useState<CanaryCandidate[] | null>(null)

  useEffect(() => {
    let live = true
    const timer = setTimeout(() => {
      getCanaryCandidates(platform, query)
        .then((rows) => live && setCandidates(rows))
        .catch((error) => console.error('Loading canary candidates failed', error))
    }, 250)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [platform, query])

  const changed = async () => {
    await refresh()
    setCandidates(await getCanaryCandidates(platform, query).catch(() => candidates))
    onChanged()
  }
  const choose = async (c: CanaryCandidate) => {
    if (
      await run(
        `choose:${c.accountId}`,
        () => chooseCanaryAccount(c.accountId, null),
        `@${c.username} is a canary account`,
      )
    )
      await changed()
  }
  const remove = async (accountId: string, username: string) => {
    if (
      await run(
        `remove:${accountId}`,
        () => removeCanaryAccount(accountId),
        `@${username} is no longer a canary account`,
      )
    )
      await changed()
  }
  const saveThread = async (accountId: string, threadId: string) => {
    if (
      await run(
        `thread:${accountId}`,
        () => chooseCanaryAccount(accountId, threadId.trim() || null),
        'Known thread saved',
      )
    )
      await refresh()
  }

  const label = data?.label ?? (platform === 'twitter' ? 'X' : 'Instagram')
  const offered = (candidates ?? []).filter((c) => !c.chosen)
  return (
    <Card data-testid="canary-accounts">
      <CardHeader>
        <CardTitle>{label} canary</CardTitle>
        <p className="mt-1 text-sm text-slate-500">
          Read-only: it signs in, opens the inbox, a known thread, a profile and one page of a search. It
          never sends.
        </p>
      </CardHeader>
      <CardBody className="space-y-6">
        <section aria-label="Canary accounts">
          <h4 className="text-sm font-semibold text-slate-900">Accounts, used in turn</h4>
          {data && data.accounts.length === 0 && (
            <p className="mt-2 text-sm text-amber-800">
              No canary account yet: the canary cannot run on {label}.
            </p>
          )}
          <ul className="mt-2 divide-y divide-slate-100">
            {data?.accounts.map((a) => (
              <li key={a.accountId} className="space-y-2 py-3">
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                    @{a.username}
                    <Pill status={a.status} />
                    {a.operator && <Pill status="queued" label="Operator's" />}
                  </p>
                  <p className="truncate text-xs text-slate-500">
                    {a.userEmail} ·{' '}
                    {a.lastRunAt ? `last run ${relativeTime(a.lastRunAt).toLowerCase()}` : 'not run yet'}
                  </p>
                </div>
                <div className="flex items-center gap-2">
                  <ThreadField
                    key={`${a.accountId}:${a.threadId ?? ''}`}
                    username={a.username}
                    value={a.threadId}
                    busy={isBusy(`thread:${a.accountId}`)}
                    onSave={(value) => void saveThread(a.accountId, value)}
                  />
                  <Button
                    size="sm"
                    variant="ghost"
                    icon={<Trash2 className="size-3.5" />}
                    loading={isBusy(`remove:${a.accountId}`)}
                    onClick={() => void remove(a.accountId, a.username)}
                    aria-label={`Remove @${a.username} from the canary`}
                  >
                    Remove
                  </Button>
                </div>
              </li>
            ))}
          </ul>
          <div className="mt-3 space-y-2">
            <SearchBox value={query} onChange={setQuery} placeholder={`Find an active ${label} account...`} />
            <ul
              className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200"
              aria-label="Accounts to choose"
            >
              {offered.length === 0 ? (
                <li className="px-3 py-2.5 text-sm text-slate-500">
                  {candidates === null ? 'Loading accounts...' : 'No other active account matches.'}
                </li>
              ) : (
                offered.slice(0, 6).map((c) => (
                  <li key={c.accountId} className="flex items-center justify-between gap-3 px-3 py-2">
                    <span className="min-w-0 truncate text-sm">
                      <span className="font-medium text-slate-900">@{c.username}</span>{' '}
                      <span className="text-slate-500">{c.operator ? "operator's own" : c.userEmail}</span>
                    </span>
                    <Button
                      size="sm"
                      variant="secondary"
                      icon={<Plus className="size-3.5" />}
                      loading={isBusy(`choose:${c.accountId}`)}
                      onClick={() => void choose(c)}
                      aria-label={`Choose @${c.username} for the canary`}
                    >
                      Choose
                    </Button>
                  </li>
                ))
              )}
            </ul>
          </div>
        </section>
        {data && (
          <SettingsForm
            key={JSON.stringify(data.settings)}
            platform={platform}
            settings={data.settings}
            onSaved={() => void refresh()}
          />
        )}
      </CardBody>
    </Card>
  )
}

function ThreadField({
  username,
  value,
  busy,
  onSave,
}: {
  username: string
  value: string | null
  busy: boolean
  onSave: (value: string) => void
}) {
  const [draft, setDraft] = useState(value ?? '')
  const id = useId()
  return (
    <form
      className="flex min-w-0 flex-1 items-center gap-2"
      onSubmit={(event) => {
        event.preventDefault()
        onSave(draft)
      }}
    >
      <label htmlFor={id} className="sr-only">
        Known thread of @{username}
      </label>
      <Input
        id={id}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        placeholder="Known thread id (optional)"
        className="h-8 min-w-0 flex-1 py-1 font-mono text-xs"
      />
      <Button type="submit" size="sm" variant="secondary" loading={busy} disabled={draft === (value ?? '')}>
        Save
      </Button>
    </form>
  )
}

function SettingsForm({
  platform,
  settings,
  onSaved,
}: {
  platform: PackPlatform
  settings: CanarySettings
  onSaved: () => void
}) {
  const ids = { profile: useId(), search: useId(), every: useId() }
  const [profile, setProfile] = useState(settings.profileUsername ?? '')
  const [search, setSearch] = useState(settings.searchQuery)
  const [every, setEvery] = useState(String(settings.everyMinutes))
  const { run, isBusy } = useAdminAction()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const saved = await run(
      'settings',
      () =>
        saveCanarySettings(platform, {
          profileUsername: profile.trim() || null,
          searchQuery: search,
          everyMinutes: Number(every),
        }),
      'Canary settings saved',
    )
    if (saved) onSaved()
  }
  return (
    <form onSubmit={submit} aria-label="Canary settings" className="space-y-4 border-t border-slate-100 pt-5">
      <h4 className="text-sm font-semibold text-slate-900">What it opens</h4>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field id={ids.profile} label="Profile" optional hint="Empty: the canary account's own profile">
          <Input
            id={ids.profile}
            value={profile}
            onChange={(e) => setProfile(e.target.value)}
            placeholder="username"
          />
        </Field>
        <Field id={ids.search} label="Search">
          <Input
            id={ids.search}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            required
            maxLength={100}
          />
        </Field>
        <Field id={ids.every} label="Every (minutes)" hint="Every minute while something is paused">
          <Input
            id={ids.every}
            type="number"
            min={1}
            max={60}
            value={every}
            onChange={(e) => setEvery(e.target.value)}
            required
          />
        </Field>
      </div>
      <div className="flex justify-end">
        <Button type="submit" variant="secondary" loading={isBusy('settings')}>
          Save settings
        </Button>
      </div>
    </form>
  )
}
