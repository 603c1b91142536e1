-- Official Instagram accounts keep working past their token's 60 days: hourly, pg_cron queues an
-- instagram.token job for each token with less than 30 days left; the runner refreshes it with
-- Instagram and stores the new seal, or, when Instagram refuses the token for good, turns the
-- account to error with the reason and tells its owner.
-- Written by `npm run db:diff` (pg-delta) from supabase/schemas; the queue and the cron job by hand.

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION internal.enqueue_instagram_token_refreshes()
  RETURNS integer
  LANGUAGE sql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  -- A long-lived token lasts 60 days and can be refreshed once it is a day old: each is renewed
  -- when 30 days are left, so a failed refresh has weeks of retries before the token runs out.
  select count(*)::integer
    from internal.enqueue_jobs('instagram.token', (
           select jsonb_agg(jsonb_build_object('data', jsonb_build_object('accountId', a.id),
                                               'singletonKey', 'instagram-token:' || a.id))
             from public.social_accounts a
             join public.platforms p on p.id = a.platform_id and p.name = 'instagram'
             join public.social_account_credentials c on c.account_id = a.id
            where a.connection = 'official'
              and a.status <> 'error'
              and c.token_expires_at < internal.now() + interval '30 days'))
$function$;

CREATE OR REPLACE FUNCTION internal.instagram_token_failed (
  p_account_id uuid,
  p_reason     text
)
  RETURNS boolean
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  account public.social_accounts;
begin
  update public.social_accounts a
     set status = 'error', flag_reason = left(p_reason, 500)
   where a.id = p_account_id and a.connection = 'official' and a.status <> 'error'
  returning * into account;
  if account.id is null then
    return false;
  end if;
  perform internal.notify(account.user_id, 'account_flagged', 'Instagram connection lost', left(p_reason, 2000),
                          jsonb_build_object('accountId', account.id, 'status', 'error'));
  return true;
end
$function$;

CREATE OR REPLACE FUNCTION internal.store_instagram_token (
  p_account_id uuid,
  p_key_id     text,
  p_ciphertext text,
  p_expires_at timestamp with time zone
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if split_part(p_ciphertext, ':', 1) is distinct from p_key_id then
    raise exception 'Credentials must be sealed with the named key' using errcode = '22023';
  end if;
  update public.social_account_credentials c
     set key_id = p_key_id, ciphertext = p_ciphertext, token_expires_at = p_expires_at
    from public.social_accounts a
   where c.account_id = p_account_id and a.id = c.account_id and a.connection = 'official';
  if not found then
    raise exception 'Account not found' using errcode = 'PT404';
  end if;
end
$function$;

COMMENT ON FUNCTION "internal"."enqueue_instagram_token_refreshes"() IS 'Run by pg_cron hourly: queues an instagram.token job (the runner refreshes the long-lived token) for each working official Instagram account whose token has less than 30 days left. Returns how many were queued.';

COMMENT ON FUNCTION "internal"."instagram_token_failed"(uuid, text) IS 'The runner, when Instagram refuses an official account''s token for good (expired, or access removed): the account turns error with the reason, and its owner is told once. Answers whether it changed.';

COMMENT ON FUNCTION "internal"."store_instagram_token"(uuid, text, text, timestamp with time zone) IS 'The runner, after Instagram refreshed an official account''s token: stores the new seal and its expiry.';

REVOKE ALL ON FUNCTION "internal"."enqueue_instagram_token_refreshes"() FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."instagram_token_failed"(uuid, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "internal"."instagram_token_failed"(uuid, text) TO "reachflow_runner";

REVOKE ALL ON FUNCTION "internal"."store_instagram_token"(uuid, text, text, timestamp WITH time zone) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "internal"."store_instagram_token"(uuid, text, text, timestamp WITH time zone) TO "reachflow_runner";

-- Queue and schedule (by hand) -------------------------------------------------------------------

-- A refresh is a single HTTP call: retried a few times an hour apart; the next hour queues it again anyway.
select pgboss.create_queue('instagram.token',
  jsonb_build_object('policy', 'short', 'retryLimit', 2, 'retryDelay', 600, 'expireInSeconds', 300));
select cron.schedule('reachflow-instagram-token-refresh', '23 * * * *', 'select internal.enqueue_instagram_token_refreshes()');
