-- Data deletion confirmation codes carry 128 random bits (32 hex digits; they were a UUIDv4 prefix,
-- 60 random bits, not the 64 the docs said) and the public status page's lookups are counted per
-- client address (internal.public_lookup_hits through public.take_public_lookup), so one address
-- cannot flood it. Codes already given (16 digits) still resolve. Written by `npm run db:diff`.


SET local check_function_bodies = off;

ALTER TABLE "internal"."instagram_data_deletions"
  DROP CONSTRAINT "instagram_data_deletions_confirmation_code_check";

CREATE TABLE "internal"."public_lookup_hits" (
  "form"         text                     NOT NULL,
  "address"      text                     NOT NULL,
  "window_start" timestamp with time zone NOT NULL,
  "hits"         integer                  NOT NULL DEFAULT 1,
  CONSTRAINT "public_lookup_hits_address_check" CHECK ((char_length(address) <= 100)),
  CONSTRAINT "public_lookup_hits_form_check" CHECK ((char_length(form) <= 50)),
  CONSTRAINT "public_lookup_hits_pkey" PRIMARY KEY (form, address, window_start)
);

ALTER TABLE "internal"."public_lookup_hits"
  ENABLE ROW LEVEL SECURITY;

CREATE OR REPLACE FUNCTION public.delete_instagram_user_data (
  p_instagram_user_id text
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  account record;
  deleted integer := 0;
  -- 128 random bits: the code is the only key to the public status page
  code text := upper(encode(extensions.gen_random_bytes(16), 'hex'));
begin
  if coalesce(p_instagram_user_id, '') !~ '^[0-9]{1,30}$' then
    raise exception 'Invalid Instagram user id' using errcode = '22023';
  end if;
  for account in
    delete from public.social_accounts a
     using public.platforms p
     where p.id = a.platform_id and p.name = 'instagram'
       and a.connection = 'official' and a.platform_user_id = p_instagram_user_id
    returning a.user_id, a.username
  loop
    deleted := deleted + 1;
    perform internal.notify(account.user_id, 'account_flagged', 'Instagram account removed',
      format('@%s asked Instagram to delete the data Reachflow held for it: the account, its automations and its conversations were deleted. Connect it again to start over.', account.username),
      jsonb_build_object('status', 'deleted'));
  end loop;
  -- what Meta delivered for that account: comments and messages of the people who wrote to it
  delete from internal.instagram_webhook_events e where e.instagram_account_id = p_instagram_user_id;
  insert into internal.instagram_data_deletions (confirmation_code, accounts_deleted) values (code, deleted);
  return jsonb_build_object('confirmation_code', code, 'accounts_deleted', deleted);
end
$function$;

CREATE OR REPLACE FUNCTION public.take_public_lookup (
  p_form           text,
  p_address        text,
  p_limit          integer,
  p_window_seconds integer
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  t timestamptz := now();
  bucket timestamptz := to_timestamp(floor(extract(epoch from t) / p_window_seconds) * p_window_seconds);
  counted integer;
begin
  if coalesce(p_limit, 0) < 1 or coalesce(p_window_seconds, 0) < 1 then
    raise exception 'A lookup limit needs a positive limit and window' using errcode = '22023';
  end if;
  delete from internal.public_lookup_hits h where h.window_start < t - interval '1 day';
  insert into internal.public_lookup_hits as h (form, address, window_start)
  values (left(p_form, 50), left(coalesce(p_address, ''), 100), bucket)
  on conflict (form, address, window_start) do update set hits = h.hits + 1
  returning h.hits into counted;
  return jsonb_build_object(
    'allowed', counted <= p_limit,
    'retryAfterSeconds', ceil(extract(epoch from bucket + make_interval(secs => p_window_seconds) - t))::integer);
end
$function$;

REVOKE ALL ON FUNCTION "public"."take_public_lookup"(text, text, integer, integer) FROM PUBLIC, "anon", "authenticated";

ALTER TABLE "internal"."instagram_data_deletions"
  ADD CONSTRAINT "instagram_data_deletions_confirmation_code_check" CHECK ((confirmation_code ~ '^[0-9A-F]{16}([0-9A-F]{16})?$'::text));

CREATE INDEX public_lookup_hits_window_idx ON internal.public_lookup_hits USING btree (window_start);

COMMENT ON FUNCTION "public"."instagram_data_deletion_status"(text) IS 'The instagram-webhook function, for the public page Meta links a person to after a data deletion request: by its confirmation code (unguessable, 128 bits), whether and when the deletion was done; null for an unknown code. The function counts each lookup per address first (public.take_public_lookup).';

COMMENT ON FUNCTION "public"."take_public_lookup"(text, text, integer, integer) IS 'Service role only (a function serving a public page): counts one lookup of p_form by p_address in the current window of p_window_seconds and answers {allowed (at most p_limit in the window), retryAfterSeconds (until the window ends)}.';

COMMENT ON TABLE "internal"."instagram_data_deletions" IS 'Data deletion requests Meta relayed for people who removed Reachflow on Instagram: the confirmation code given back (128 random bits as 32 hex digits; codes given before have 16) and what was deleted, nothing about the person (their data is gone). Read only through public.instagram_data_deletion_status (service role).';

COMMENT ON TABLE "internal"."public_lookup_hits" IS 'Lookups of public pages without a sign-in (the data deletion status page), counted per form, client address and window, so one address cannot flood them. Only through public.take_public_lookup (service role); rows older than a day are removed as new ones come.';

REVOKE ALL ON FUNCTION "public"."take_public_lookup"(text, text, integer, integer) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."take_public_lookup"(text, text, integer, integer) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."take_public_lookup"(text, text, integer, integer) TO "service_role";
