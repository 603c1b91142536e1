-- An account alert ("Account needs attention", "Account paused") is about a state, not an event:
-- once the account is Active again (a passing test after the customer fixed it, a pause that ran
-- out, an operator's resume) the alert no longer holds. It is marked read and resolved, so the bell
-- stops counting a problem that is gone; the panel says it was resolved. Done in the database so
-- every path back to active (runner, scheduler, admin function) resolves it the same way.

-- Helper functions -----------------------------------------------------------------------------

create or replace function internal.resolve_account_alerts()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.notifications n
     set read = true,
         read_at = coalesce(n.read_at, now()),
         metadata = n.metadata || jsonb_build_object('resolvedAt', internal.now())
   where n.user_id = new.user_id
     and n.type = 'account_flagged'
     and n.metadata ->> 'accountId' = new.id::text
     and not n.metadata ? 'resolvedAt';
  return null;
end
$$;
comment on function internal.resolve_account_alerts() is
  'AFTER UPDATE of status on social_accounts, when an account becomes active: its account_flagged notifications are marked read with metadata.resolvedAt.';

-- Triggers -------------------------------------------------------------------------------------

create trigger social_accounts_resolve_alerts
  after update of status on public.social_accounts
  for each row when (new.status = 'active' and old.status is distinct from 'active')
  execute function internal.resolve_account_alerts();

revoke execute on function internal.resolve_account_alerts() from public;
