-- Official X accounts (X API v2 through the customer's own developer app): the OAuth 2.0 PKCE connect
-- in progress (state, sealed verifier and app keys; one use, expiring, bound to the customer), the
-- function that creates the official account within the plan limit from the callback, and the
-- runner's one write of credentials, for tokens it rotated (X refresh tokens work once).
-- Written by `npm run db:diff` (pg-delta) from supabase/schemas.

SET local check_function_bodies = off;

CREATE TABLE "public"."x_oauth_requests" (
  "id"           uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "user_id"      uuid                     NOT NULL,
  "state_hash"   text                     NOT NULL,
  "key_id"       text                     NOT NULL,
  "sealed"       text                     NOT NULL,
  "redirect_uri" text                     NOT NULL,
  "created_at"   timestamp with time zone NOT NULL DEFAULT now(),
  "expires_at"   timestamp with time zone NOT NULL,
  "used_at"      timestamp with time zone,
  CONSTRAINT "x_oauth_requests_pkey" PRIMARY KEY (id),
  CONSTRAINT "x_oauth_requests_state_hash_key" UNIQUE (state_hash)
);

ALTER TABLE "public"."x_oauth_requests"
  ENABLE ROW LEVEL SECURITY;

REVOKE ALL ON TABLE "public"."x_oauth_requests" FROM "anon", "authenticated";

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
  allowed integer;
  plan text;
  billing_status text;
  current_count integer;
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

  insert into public.social_accounts (user_id, platform_id, username, platform_user_id, status, connection, last_tested_at)
  values (p_user_id, target.id, p_username, p_platform_user_id, 'active', 'official', now())
  returning * into account;
  insert into public.social_account_credentials (account_id, key_id, ciphertext)
  values (account.id, p_credentials_key_id, p_credentials);
  return to_jsonb(account) || jsonb_build_object('reconnected', false);
end
$function$;

REVOKE ALL ON FUNCTION "public"."connect_official_x_account"(uuid, text, text, text, text) FROM PUBLIC, "anon", "authenticated";

CREATE OR REPLACE FUNCTION public.save_official_credentials (
  p_account_id uuid,
  p_key_id     text,
  p_ciphertext text
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if p_ciphertext is null or split_part(p_ciphertext, ':', 1) is distinct from p_key_id then
    raise exception 'Credentials must be sealed with the named key' using errcode = '22023';
  end if;
  update public.social_account_credentials c
     set key_id = p_key_id, ciphertext = p_ciphertext
    from public.social_accounts a
   where c.account_id = p_account_id and a.id = c.account_id and a.connection = 'official';
  if not found then
    raise exception 'No official account %', p_account_id using errcode = 'PT404';
  end if;
end
$function$;

REVOKE ALL ON FUNCTION "public"."save_official_credentials"(uuid, text, text) FROM PUBLIC, "anon", "authenticated";

ALTER TABLE "public"."x_oauth_requests"
  ADD CONSTRAINT "x_oauth_requests_user_id_fkey" FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE;

COMMENT ON COLUMN "public"."x_oauth_requests"."sealed" IS 'Encrypted {codeVerifier, clientId, clientSecret} (crypto.ts), never readable by a client role.';

COMMENT ON FUNCTION "public"."connect_official_x_account"(uuid, text, text, text, text) IS 'Service role only (the api function, after the OAuth callback proved the X user and sealed the tokens with the developer app''s id and secret): creates the official X account (status active, no test job: X itself vouched for it) within the plan limit, or gives an official account of the same X user its new tokens.';

COMMENT ON FUNCTION "public"."save_official_credentials"(uuid, text, text) IS 'The runner''s one write of sealed credentials: an official account''s rotated OAuth tokens, saved before they are used (a refresh token works once). Browser accounts'' credentials stay read-only to it.';

COMMENT ON TABLE "public"."x_oauth_requests" IS 'An X OAuth 2.0 (PKCE) connect in progress: the state (stored as its SHA-256), the sealed code verifier and the customer''s developer-app id and secret, bound to the customer, one use, expiring. Only the api function (service role) reads or writes it.';

REVOKE ALL ON FUNCTION "public"."connect_official_x_account"(uuid, text, text, text, text) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."connect_official_x_account"(uuid, text, text, text, text) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."connect_official_x_account"(uuid, text, text, text, text) TO "service_role";

REVOKE ALL ON FUNCTION "public"."save_official_credentials"(uuid, text, text) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."save_official_credentials"(uuid, text, text) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."save_official_credentials"(uuid, text, text) TO "reachflow_runner", "service_role";

REVOKE ALL ON TABLE "public"."x_oauth_requests" FROM "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."x_oauth_requests" TO "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."x_oauth_requests" TO "service_role";
