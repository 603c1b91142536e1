-- "Last sync: Never" stayed after a successful account test (issue 17): the first inbox sync came
-- with the scheduler's quarter-hour round. The runner now asks for one as soon as a test passes, so
-- Last sync is the real time of the account's first inbox sync within a minute of connecting. The
-- runner may not queue jobs in general; this queues only that one (a singleton per account).
create or replace function internal.request_inbox_sync(p_account_id uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.social_accounts a where a.id = p_account_id and a.status = 'active') then
    return null;
  end if;
  return internal.enqueue_job('inbox.sync', jsonb_build_object('accountId', p_account_id), 'inbox:' || p_account_id);
end
$$;
comment on function internal.request_inbox_sync(uuid) is
  'Queues an inbox.sync for an active account (singleton per account); the runner calls it when an account test passes.';
revoke execute on function internal.request_inbox_sync(uuid) from public;
grant execute on function internal.request_inbox_sync(uuid) to reachflow_runner, service_role;
