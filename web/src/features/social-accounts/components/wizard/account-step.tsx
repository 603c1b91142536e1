import { Field, Input } from '@/components/ui/form-field'
import type { ConnectAccountForm } from '@/lib/accounts/connect-account'
import { shownAtField } from '../../account-wizard-rules'

type Patch = (change: Partial<ConnectAccountForm>) => void

export function AccountStep({
  form,
  onChange,
  problem,
}: {
  form: ConnectAccountForm
  onChange: Patch
  problem: string | null
}) {
  const atField = shownAtField(form, problem) ? problem : null
  const usernameProblem = atField && /username/i.test(atField) ? atField : null
  const proxyProblem = atField && /proxy/i.test(atField) ? atField : null
  return (
    <>
      <Field id="acct-username" label="Username" hint="Your handle without the @" error={usernameProblem}>
        <div className="flex rounded-lg shadow-sm ring-1 ring-slate-300 ring-inset focus-within:ring-2 focus-within:ring-brand-600">
          <span className="flex items-center pl-3 text-sm text-slate-400">@</span>
          <input
            id="acct-username"
            autoComplete="off"
            className="block w-full rounded-lg border-0 bg-transparent px-1.5 py-2.5 text-sm text-slate-900 placeholder:text-slate-400 focus:outline-none"
            placeholder="yourhandle"
            value={form.username}
            onChange={(e) => onChange({ username: e.target.value.replace(/^@/, '') })}
          />
        </div>
      </Field>
      <Field
        id="acct-proxy"
        label="Proxy URL"
        optional
        hint="user:pass@host:port — one stable proxy per account keeps its sign-ins consistent."
        error={proxyProblem}
      >
        <Input
          id="acct-proxy"
          autoComplete="off"
          placeholder="user:pass@host:port"
          value={form.proxyUrl}
          onChange={(e) => onChange({ proxyUrl: e.target.value })}
        />
      </Field>
    </>
  )
}
