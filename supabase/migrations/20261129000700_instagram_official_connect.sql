-- Connecting an Instagram professional account through Instagram's own OAuth (Instagram API with
-- Instagram Login): one-use states bound to the customer who clicked Connect, the official account's
-- creation within the plan's limit (one Reachflow workspace per Instagram account; connecting again
-- renews the token), the token's expiry beside its seal so refreshes can be found, and no browser
-- inbox reads for official Instagram accounts (their messages come by webhook).
-- Written by `npm run db:diff` (pg-delta) from supabase/schemas.

SET local check_function_bodies = off;

CREATE TABLE "internal"."instagram_oauth_states" (
  "state_hash" text                     NOT NULL,
  "user_id"    uuid                     NOT NULL,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "expires_at" timestamp with time zone NOT NULL,
  CONSTRAINT "instagram_oauth_states_pkey" PRIMARY KEY (state_hash),
  CONSTRAINT "instagram_oauth_states_state_hash_check" CHECK ((state_hash ~ '^[0-9a-f]{64}$'::text))
);

ALTER TABLE "internal"."instagram_oauth_states"
  ENABLE ROW LEVEL SECURITY;

ALTER TABLE "public"."social_account_credentials"
  ADD COLUMN "token_expires_at" timestamp WITH time zone;

CREATE OR REPLACE FUNCTION internal.inbox_syncs_due (
  p_at timestamp with time zone
)
  RETURNS TABLE (
    account_id uuid
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  -- A read by anything (this sync, a campaign tick that held the session, "Check now") moves
  -- last_synced_at, so an account read recently is never due: the fold saves the separate job.
  select a.id
    from public.social_accounts a
   where a.status = 'active'
     -- an official Instagram account's messages arrive by webhook; no browser reads its inbox
     and not (a.connection = 'official'
              and a.platform_id = (select p.id from public.platforms p where p.name = 'instagram'))
     and case
           when exists (select 1 from public.campaigns c
                         where c.account_id = a.id and c.status in ('queued', 'running', 'active'))
             or exists (select 1 from public.inbox_threads th
                         where th.account_id = a.id and th.status = 'open'
                           and th.last_message_at > p_at - interval '3 days')
             or exists (select 1 from public.inbox_threads th
                         where th.account_id = a.id and th.last_incoming_at > p_at - interval '1 day')
             then coalesce(a.last_synced_at, '-infinity'::timestamptz) <= p_at - interval '3 minutes 30 seconds'
           -- idle: in its own minute of the hour, unless something read it in the last half hour
           else mod(pg_catalog.hashtext(a.id::text)::bigint + 2147483648, 60)
                  = mod(floor(pg_catalog.date_part('epoch', p_at) / 60)::bigint, 60)
                and coalesce(a.last_synced_at, '-infinity'::timestamptz) <= p_at - interval '30 minutes'
         end
$function$;

CREATE OR REPLACE FUNCTION public.begin_instagram_connect (
  p_user_id    uuid,
  p_state_hash text,
  p_expires_at timestamp with time zone
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  delete from internal.instagram_oauth_states s where s.expires_at <= internal.now();
  -- a customer clicking Connect again and again keeps a handful of live states, not a pile
  if (select count(*) from internal.instagram_oauth_states s where s.user_id = p_user_id) >= 10 then
    raise exception 'Too many Instagram connections started. Wait a few minutes and try again.' using errcode = 'P0001';
  end if;
  insert into internal.instagram_oauth_states (state_hash, user_id, expires_at)
  values (p_state_hash, p_user_id, p_expires_at);
end
$function$;

REVOKE ALL ON FUNCTION "public"."begin_instagram_connect"(uuid, text, timestamp WITH time zone) FROM PUBLIC, "anon", "authenticated";

CREATE OR REPLACE FUNCTION public.consume_instagram_connect (
  p_state_hash text
)
  RETURNS uuid
  LANGUAGE sql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  delete from internal.instagram_oauth_states s
   where s.state_hash = p_state_hash and s.expires_at > internal.now()
  returning s.user_id
$function$;

REVOKE ALL ON FUNCTION "public"."consume_instagram_connect"(text) FROM PUBLIC, "anon", "authenticated";

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
  allowed integer;
  plan text;
  billing_status text;
  current_count integer;
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

  select l.account_limit, l.plan_type, l.subscription_status into allowed, plan, billing_status
    from internal.account_limit(p_user_id) l;
  select count(*) into current_count from public.social_accounts a where a.user_id = p_user_id;
  if current_count >= allowed then
    raise exception '%', case
        when plan <> 'free' then format('Account limit reached. You have %s/%s accounts.', current_count, allowed)
        when billing_status in ('past_due', 'canceled', 'incomplete') then 'Subscription is not active'
        else 'You are currently limited to 1 social media account. Upgrade your plan to add more accounts.'
      end
      using errcode = 'P0001', hint = 'account_limit';
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

REVOKE ALL ON FUNCTION "public"."create_instagram_official_account"(uuid, text, text, text, text, timestamp WITH time zone) FROM PUBLIC, "anon", "authenticated";

ALTER TABLE "internal"."instagram_oauth_states"
  ADD CONSTRAINT "instagram_oauth_states_user_id_fkey" FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE;

CREATE INDEX instagram_oauth_states_user_id_idx ON internal.instagram_oauth_states USING btree (user_id);

CREATE UNIQUE INDEX social_accounts_official_platform_user_key ON public.social_accounts USING btree (platform_id, platform_user_id)
  WHERE (CONNECTION = 'official'::text);

COMMENT ON COLUMN "public"."social_account_credentials"."token_expires_at" IS 'Official accounts: when the sealed access token expires (not secret), so refreshes are found without opening the seal.';

COMMENT ON FUNCTION "public"."begin_instagram_connect"(uuid, text, timestamp with time zone) IS 'Service role only (the instagram-official function, for the signed-in caller): remembers the hash of a new OAuth state until it expires.';

COMMENT ON FUNCTION "public"."consume_instagram_connect"(text) IS 'Service role only: the customer who started the connect with this state, once (the row goes), or null when unknown, used or expired.';

COMMENT ON FUNCTION "public"."create_instagram_official_account"(uuid, text, text, text, text, timestamp with time zone) IS 'Service role only (the instagram-official callback, after Instagram confirmed the account): adds the customer''s Instagram professional account as connection official, active, with its sealed long-lived token and expiry, within the plan''s account limit; connecting the same Instagram account again renews its token.';

COMMENT ON TABLE "internal"."instagram_oauth_states" IS 'Connects in progress: the SHA-256 of the OAuth state handed to Instagram, bound to the signed-in customer who started it; used once, within its expiry.';

REVOKE ALL ON FUNCTION "public"."begin_instagram_connect"(uuid, text, timestamp WITH time zone) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."begin_instagram_connect"(uuid, text, timestamp WITH time zone) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."begin_instagram_connect"(uuid, text, timestamp WITH time zone) TO "service_role";

REVOKE ALL ON FUNCTION "public"."consume_instagram_connect"(text) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."consume_instagram_connect"(text) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."consume_instagram_connect"(text) TO "service_role";

REVOKE ALL ON FUNCTION "public"."create_instagram_official_account"(uuid, text, text, text, text, timestamp WITH time zone) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."create_instagram_official_account"(uuid, text, text, text, text, timestamp WITH time zone) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."create_instagram_official_account"(uuid, text, text, text, text, timestamp WITH time zone) TO "service_role";
