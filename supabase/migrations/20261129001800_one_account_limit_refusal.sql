-- One wording for the plan limit, written by `npm run db:diff` (pg-delta) from supabase/schemas:
-- internal.account_limit_refusal says why another account cannot be added (or null), and the three
-- ways an account is created (browser, official X, official Instagram) raise it, instead of each
-- carrying its own copy of the texts. Behaviour and texts are unchanged.

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION internal.account_limit_refusal (
  p_user_id uuid
)
  RETURNS text
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  allowed integer;
  plan text;
  billing_status text;
  current_count integer;
begin
  select l.account_limit, l.plan_type, l.subscription_status into allowed, plan, billing_status
    from internal.account_limit(p_user_id) l;
  select count(*) into current_count from public.social_accounts a where a.user_id = p_user_id;
  if current_count < allowed then
    return null;
  end if;
  return case
    when plan <> 'free' then format('Account limit reached. You have %s/%s accounts.', current_count, allowed)
    when billing_status in ('past_due', 'canceled', 'incomplete') then 'Subscription is not active'
    else 'You are currently limited to 1 social media account. Upgrade your plan to add more accounts.'
  end;
end
$function$;

CREATE OR REPLACE FUNCTION public.connect_official_x_account (
  p_user_id            uuid,
  p_username           text,
  p_platform_user_id   text,
  p_credentials_key_id text,
  p_credentials        text
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  target public.platforms;
  existing public.social_accounts;
  account public.social_accounts;
  refusal text;
begin
  select * into target from public.platforms p where p.name = 'twitter';
  if target.id is null or not target.is_active or target.coming_soon then
    raise exception 'This platform cannot be connected yet' using errcode = '22023';
  end if;
  if p_credentials is null or split_part(p_credentials, ':', 1) is distinct from p_credentials_key_id then
    raise exception 'Credentials must be sealed with the named key' using errcode = '22023';
  end if;
  if p_platform_user_id !~ '^[0-9]{1,19}$' then
    raise exception 'X returned no user id' using errcode = '22023';
  end if;
  -- the same lock as create_social_account, so the limit below is the one an insert would see
  perform 1 from public.user_profiles p where p.id = p_user_id for update;
  if not found then
    raise exception 'User not authenticated' using errcode = 'PT404';
  end if;

  select * into existing from public.social_accounts a
   where a.user_id = p_user_id and a.platform_id = target.id
     and (a.platform_user_id = p_platform_user_id or lower(a.username) = lower(p_username))
   for update;
  if existing.id is not null then
    if existing.connection <> 'official' then
      raise exception 'This X account is already connected through the browser. Delete it first to connect it through the X API.'
        using errcode = '23505';
    end if;
    -- connecting again (new tokens, perhaps another developer app) revives the same account
    update public.social_accounts a
       set username = p_username, platform_user_id = p_platform_user_id, status = 'active', flag_reason = null,
           last_tested_at = now()
     where a.id = existing.id
     returning * into account;
    update public.social_account_credentials c
       set key_id = p_credentials_key_id, ciphertext = p_credentials, session_ciphertext = null
     where c.account_id = existing.id;
    return to_jsonb(account) || jsonb_build_object('reconnected', true);
  end if;

  refusal := internal.account_limit_refusal(p_user_id);
  if refusal is not null then
    raise exception '%', refusal using errcode = 'P0001', hint = 'account_limit';
  end if;

  -- no warm-up: the API's own limits pace an official account, not a browser's
  insert into public.social_accounts (user_id, platform_id, username, platform_user_id, status, connection, last_tested_at, warmup_phase)
  values (p_user_id, target.id, p_username, p_platform_user_id, 'active', 'official', now(), 5)
  returning * into account;
  insert into public.social_account_credentials (account_id, key_id, ciphertext)
  values (account.id, p_credentials_key_id, p_credentials);
  return to_jsonb(account) || jsonb_build_object('reconnected', false);
end
$function$;

CREATE OR REPLACE FUNCTION public.create_instagram_official_account (
  p_user_id            uuid,
  p_username           text,
  p_platform_user_id   text,
  p_credentials_key_id text,
  p_credentials        text,
  p_token_expires_at   timestamp with time zone
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  target public.platforms;
  existing public.social_accounts;
  account public.social_accounts;
  refusal text;
begin
  select * into target from public.platforms p where p.name = 'instagram';
  if target.id is null or not target.is_active or target.coming_soon then
    raise exception 'This platform cannot be connected yet' using errcode = '22023';
  end if;
  if p_credentials is null or split_part(p_credentials, ':', 1) is distinct from p_credentials_key_id then
    raise exception 'Credentials must be sealed with the named key' using errcode = '22023';
  end if;
  perform 1 from public.user_profiles p where p.id = p_user_id for update;
  if not found then
    raise exception 'User not authenticated' using errcode = 'PT404';
  end if;

  select * into existing from public.social_accounts a
   where a.platform_id = target.id and a.connection = 'official' and a.platform_user_id = p_platform_user_id
   for update;
  if existing.id is not null and existing.user_id <> p_user_id then
    raise exception 'This Instagram account is connected to another Reachflow workspace. Disconnect it there first.'
      using errcode = '23505';
  end if;
  if existing.id is not null then
    -- connecting again (a new token after an error or a revoke): the same account, working again
    update public.social_accounts a
       set username = p_username, status = 'active', flag_reason = null, paused_until = null
     where a.id = existing.id
    returning * into account;
    update public.social_account_credentials c
       set key_id = p_credentials_key_id, ciphertext = p_credentials, token_expires_at = p_token_expires_at
     where c.account_id = account.id;
    return to_jsonb(account) || jsonb_build_object('reconnected', true);
  end if;

  refusal := internal.account_limit_refusal(p_user_id);
  if refusal is not null then
    raise exception '%', refusal using errcode = 'P0001', hint = 'account_limit';
  end if;

  begin
    -- no warm-up: the API's own limits pace an official account, not a browser's
    insert into public.social_accounts (user_id, platform_id, username, platform_user_id, connection, status, warmup_phase)
    values (p_user_id, target.id, p_username, p_platform_user_id, 'official', 'active', 5)
    returning * into account;
  exception
    when unique_violation then
      raise exception '@% is already connected through the browser. Remove it from your accounts first to connect it through Instagram''s API.', p_username
        using errcode = '23505';
  end;
  insert into public.social_account_credentials (account_id, key_id, ciphertext, token_expires_at)
  values (account.id, p_credentials_key_id, p_credentials, p_token_expires_at);
  return to_jsonb(account) || jsonb_build_object('reconnected', false);
end
$function$;

CREATE OR REPLACE FUNCTION public.create_social_account (
  p_user_id            uuid,
  p_platform           text,
  p_username           text,
  p_proxy_url          text,
  p_credentials_key_id text,
  p_credentials        text,
  p_has_chat_passcode  boolean DEFAULT false
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  target public.platforms;
  refusal text;
  account public.social_accounts;
  job_id uuid;
begin
  select * into target from public.platforms p where p.name = p_platform;
  if target.id is null or not target.is_active or target.coming_soon then
    raise exception 'This platform cannot be connected yet' using errcode = '22023';
  end if;
  if p_credentials is null or split_part(p_credentials, ':', 1) is distinct from p_credentials_key_id then
    raise exception 'Credentials must be sealed with the named key' using errcode = '22023';
  end if;

  -- The insert trigger takes the same lock; taking it first makes the count below the one the insert
  -- sees, so concurrent creates for one customer queue up and only those within the plan succeed.
  perform 1 from public.user_profiles p where p.id = p_user_id for update;
  if not found then
    raise exception 'User not authenticated' using errcode = 'PT404';
  end if;
  refusal := internal.account_limit_refusal(p_user_id);
  if refusal is not null then
    raise exception '%', refusal using errcode = 'P0001', hint = 'account_limit';
  end if;

  begin
    insert into public.social_accounts (user_id, platform_id, username, proxy_url, has_chat_passcode, status)
    values (p_user_id, target.id, p_username, nullif(p_proxy_url, ''), coalesce(p_has_chat_passcode, false), 'testing')
    returning * into account;
  exception
    when unique_violation then
      raise exception 'This account is already connected' using errcode = '23505';
  end;
  insert into public.social_account_credentials (account_id, key_id, ciphertext)
  values (account.id, p_credentials_key_id, p_credentials);
  job_id := internal.enqueue_job('account.test', jsonb_build_object('accountId', account.id), 'account:' || account.id);

  return to_jsonb(account) || jsonb_build_object('test_job_id', job_id);
end
$function$;

COMMENT ON FUNCTION "internal"."account_limit_refusal"(uuid) IS 'Why the customer cannot add another account (product.md §6 texts, as check_account_limit says them to the signed-in caller), or null when the plan has room: one wording for every way an account is created.';

REVOKE ALL ON FUNCTION "internal"."account_limit_refusal"(uuid) FROM PUBLIC;
