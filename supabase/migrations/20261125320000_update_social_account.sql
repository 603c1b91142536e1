-- Edit account (issue 17): change an account's sign-in details, passcode, proxy or daily limit
-- without deleting it (which stranded its campaigns). The api function checks the input, merges it
-- with the stored credentials and seals them; this applies it in one transaction: credentials
-- replaced (and the saved browser session dropped: it belonged to the old details), proxy and limit
-- set, the account back to 'testing' and a fresh account.test queued. Campaigns keep their account.
create or replace function public.update_social_account(
  p_user_id uuid,
  p_account_id uuid,
  p_credentials_key_id text,
  p_credentials text,
  p_has_chat_passcode boolean,
  p_set_proxy boolean,
  p_proxy_url text,
  p_daily_message_limit integer
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  account public.social_accounts;
  job_id uuid;
begin
  select * into account from public.social_accounts a
   where a.id = p_account_id and a.user_id = p_user_id
   for update;
  if account.id is null then
    raise exception 'Account not found' using errcode = 'PT404';
  end if;
  if p_credentials is null or split_part(p_credentials, ':', 1) is distinct from p_credentials_key_id then
    raise exception 'Credentials must be sealed with the named key' using errcode = '22023';
  end if;

  update public.social_account_credentials
     set key_id = p_credentials_key_id, ciphertext = p_credentials, session_ciphertext = null
   where account_id = account.id;
  update public.social_accounts a
     set has_chat_passcode = coalesce(p_has_chat_passcode, a.has_chat_passcode),
         proxy_url = case when p_set_proxy then nullif(p_proxy_url, '') else a.proxy_url end,
         daily_message_limit = coalesce(p_daily_message_limit, a.daily_message_limit),
         -- a paused account's platform pause still runs out on its own; anything else is re-tested
         status = case when a.status = 'paused' then a.status else 'testing' end,
         flag_reason = case when a.status = 'paused' then a.flag_reason else null end
   where a.id = account.id
   returning * into account;
  perform internal.drop_waiting_jobs(array['account.test'], 'accountId', array[account.id], true);
  job_id := internal.enqueue_job('account.test', jsonb_build_object('accountId', account.id), 'account:' || account.id);
  return to_jsonb(account) || jsonb_build_object('test_job_id', job_id);
end
$$;
comment on function public.update_social_account(uuid, uuid, text, text, boolean, boolean, text, integer) is
  'Service role only (the api function, after it authenticated the caller, checked the input and sealed the merged credentials): replaces the credentials (dropping the saved session), sets proxy and limit, and re-tests the account with a fresh account.test job, in one transaction.';
revoke execute on function public.update_social_account(uuid, uuid, text, text, boolean, boolean, text, integer)
  from public, anon, authenticated;
grant execute on function public.update_social_account(uuid, uuid, text, text, boolean, boolean, text, integer)
  to service_role;
