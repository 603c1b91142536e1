import { useMutation } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { AccountCheckPanel } from '@/components/accounts/account-check-panel'
import { useAccountCheck } from '@/components/accounts/use-account-check'
import { Button } from '@/components/ui/button'
import { Dialog } from '@/components/ui/dialog'
import { Field, Input, Textarea } from '@/components/ui/form-field'
import { readCookieInput } from '@/lib/accounts/cookie-input'
import { proxyDisplay } from '@/lib/accounts/proxy-display'
import type { SocialAccount } from '../api/get-accounts'
import { type AccountChanges, updateAccount } from '../api/update-account'

/**
 * Edit account: new cookies or password, 2FA key, X Chat passcode, proxy and daily limit
 * without deleting the account (its campaigns keep it). Blank secret fields keep what is stored;
 * saving re-tests the account and shows the test as it runs.
 */
export function EditAccountDialog({
  account,
  onClose,
  onChanged,
}: {
  account: SocialAccount
  onClose: () => void
  onChanged: () => void
}) {
  const x = account.platform?.name === 'twitter'
  // an official account signs in through the platform's OAuth: only its daily limit is set here
  const official = account.connection === 'official'
  const [cookies, setCookies] = useState('')
  const [passcode, setPasscode] = useState('')
  const [password, setPassword] = useState('')
  const [secretKey, setSecretKey] = useState('')
  const [proxy, setProxy] = useState(account.proxy_url ?? '')
  const [limit, setLimit] = useState(String(account.daily_message_limit))
  const [problem, setProblem] = useState<string | null>(null)
  const { state: check, follow } = useAccountCheck('edit account')

  const save = useMutation({
    mutationFn: (changes: AccountChanges) => updateAccount(account.id, changes),
    onSuccess: async () => {
      onChanged()
      // nothing to test again: the limit is saved and the grant is unchanged
      if (official) return onClose()
      if (await follow(account.id, account.platform?.name ?? '')) onChanged()
    },
  })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const changes: AccountChanges = {}
    const authData: NonNullable<AccountChanges['authData']> = {}
    if (x) {
      if (cookies.trim()) {
        const parsed = readCookieInput(cookies)
        if (!parsed.ok) return setProblem(parsed.message)
        authData.cookies = parsed.body
      }
      if (passcode) {
        if (!/^\d{4}$/.test(passcode)) return setProblem('The X Chat passcode must be 4 digits')
        authData.chatPasscode = passcode
      }
    } else {
      if (password) authData.password = password
      if (secretKey.trim()) authData.secretKey = secretKey.trim()
    }
    if (Object.keys(authData).length > 0) changes.authData = authData
    if (proxy.trim() !== (account.proxy_url ?? '')) changes.proxyUrl = proxy.trim() || null
    const daily = Number(limit)
    if (!Number.isInteger(daily) || daily < 1 || daily > 500)
      return setProblem('Daily message limit must be a whole number from 1 to 500')
    if (daily !== account.daily_message_limit) changes.dailyMessageLimit = daily
    setProblem(null)
    save.mutate(changes)
  }

  const error = problem ?? (save.isError ? save.error.message : null)
  // said under the field as soon as pasted cookies cannot make a session, not only on Save
  const cookieInput = cookies.trim() ? readCookieInput(cookies) : null
  const cookieProblem = cookieInput && !cookieInput.ok ? cookieInput.message : null
  return (
    <Dialog open onClose={onClose} title={`Edit @${account.username}`} size="2xl">
      {check ? (
        <>
          <AccountCheckPanel
            state={check}
            platform={account.platform?.name ?? ''}
            username={account.username}
            proxy={proxyDisplay(proxy)}
          />
          <div className="mt-6 flex justify-end border-t border-slate-100 pt-5">
            <Button variant={check.phase === 'done' ? 'primary' : 'secondary'} onClick={onClose}>
              {check.phase === 'done' && check.outcome.kind === 'active' ? 'Done' : 'Close'}
            </Button>
          </div>
        </>
      ) : (
        <form noValidate onSubmit={submit} className="space-y-5">
          <p className="text-sm text-slate-600">
            {official
              ? `This account is connected through ${x ? 'the X API' : "Instagram's API"}. To renew its access, connect it again from Add Account.`
              : 'Leave a secret field empty to keep what is stored. Saving tests the account again; its campaigns keep it.'}
          </p>
          {official ? null : x ? (
            <>
              <Field
                id="edit-cookies"
                label="New cookies (JSON)"
                optional
                hint="If X signed the account out: paste fresh x.com cookies, as a cookie editor's JSON export or the header auth_token=…; ct0=…"
                error={cookieProblem}
              >
                <Textarea
                  id="edit-cookies"
                  rows={4}
                  className="font-mono text-xs"
                  aria-invalid={cookieProblem !== null}
                  aria-describedby={cookieProblem ? 'edit-cookies-error' : 'edit-cookies-hint'}
                  value={cookies}
                  onChange={(e) => {
                    setProblem(null)
                    setCookies(e.target.value)
                  }}
                />
              </Field>
              <Field
                id="edit-passcode"
                label="X Chat passcode"
                hint={
                  account.has_chat_passcode
                    ? 'A passcode is stored. Type a new one only if you changed it on X.'
                    : 'X asks for this 4-digit passcode when Messages (X Chat) opens. Needed to send and read DMs.'
                }
              >
                <Input
                  id="edit-passcode"
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={4}
                  className="w-28 tracking-[0.4em]"
                  placeholder={account.has_chat_passcode ? '••••' : ''}
                  value={passcode}
                  onChange={(e) => setPasscode(e.target.value.replace(/\D/g, ''))}
                />
              </Field>
            </>
          ) : (
            <>
              <Field id="edit-password" label="New Instagram password" optional>
                <Input
                  id="edit-password"
                  type="password"
                  autoComplete="new-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                />
              </Field>
              <Field id="edit-secret" label="New 2FA secret key" optional>
                <Input
                  id="edit-secret"
                  autoComplete="off"
                  value={secretKey}
                  onChange={(e) => setSecretKey(e.target.value)}
                />
              </Field>
            </>
          )}
          {!official && (
            <Field
              id="edit-proxy"
              label="Proxy"
              optional
              hint="Left as it is, the proxy and its stored login are kept. To change it, type the new proxy with its login (user:pass@host:port); clear the field to remove it."
            >
              <Input
                id="edit-proxy"
                autoComplete="off"
                placeholder="user:pass@host:port"
                value={proxy}
                onChange={(e) => setProxy(e.target.value)}
              />
            </Field>
          )}
          <Field
            id="edit-limit"
            label="Messages per day"
            hint="1 to 500; warm-up and the platform's ceiling still apply."
          >
            <Input
              id="edit-limit"
              type="number"
              min={1}
              max={500}
              className="w-32"
              value={limit}
              onChange={(e) => setLimit(e.target.value)}
            />
          </Field>
          {error && error !== cookieProblem && (
            <p
              role="alert"
              className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700 ring-1 ring-red-200"
            >
              {error}
            </p>
          )}
          <div className="flex flex-col-reverse gap-3 border-t border-slate-100 pt-5 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={onClose} disabled={save.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending} loadingText="Saving...">
              {official ? 'Save' : 'Save and test'}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  )
}
