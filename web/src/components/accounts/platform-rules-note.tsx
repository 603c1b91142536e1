import { ShieldAlert } from 'lucide-react'

/**
 * Plain-language note on the platforms' rules (shared/platforms.md "Terms of service, shown to
 * users"), shown where accounts are connected and campaigns launched.
 */
export function PlatformRulesNote({ context }: { context: 'connect' | 'launch' }) {
  return (
    <aside className="flex gap-3 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
      <ShieldAlert className="mt-0.5 size-5 shrink-0 text-amber-600" aria-hidden="true" />
      <div className="space-y-1">
        <p className="font-semibold">Know the platforms' rules</p>
        <p>
          X's rules forbid unsolicited bulk or automated direct messages and scripting the website, and
          Instagram's terms forbid automated access. Accounts that break these rules can be restricted or
          suspended.
        </p>
        <p>
          {context === 'connect'
            ? 'We keep conservative limits (a warm-up for new accounts, at most 50 messages a day by default) and pause an account at the first warning sign, but you are responsible for how you use it.'
            : 'Message people who are likely to welcome it, keep the daily limit low, and honour every opt-out: anyone who replies with an opt-out word such as "stop" or "unsubscribe" is never contacted again (Settings, Do-not-contact list).'}
        </p>
      </div>
    </aside>
  )
}
