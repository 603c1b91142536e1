-- Meta's two app callbacks for Instagram Login, written by `npm run db:diff` (pg-delta) from
-- supabase/schemas: when a person removes Reachflow in Instagram's settings, the deauthorize callback
-- turns their official accounts to error and tells the owners (instagram_access_removed); when they
-- ask for their data to be deleted, the data deletion callback deletes the accounts and the events
-- Meta delivered for them and answers a confirmation code (delete_instagram_user_data), whose status
-- the public status page reads by that code through the function (instagram_data_deletion_status).

SET local check_function_bodies = off;

CREATE TABLE "internal"."instagram_data_deletions" (
  "confirmation_code" text                     NOT NULL,
  "accounts_deleted"  integer                  NOT NULL,
  "requested_at"      timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "instagram_data_deletions_accounts_deleted_check" CHECK ((accounts_deleted >= 0)),
  CONSTRAINT "instagram_data_deletions_confirmation_code_check" CHECK ((confirmation_code ~ '^[0-9A-F]{16}$'::text)),
  CONSTRAINT "instagram_data_deletions_pkey" PRIMARY KEY (confirmation_code)
);

ALTER TABLE "internal"."instagram_data_deletions"
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
  code text := upper(left(replace(gen_random_uuid()::text, '-', ''), 16));
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

REVOKE ALL ON FUNCTION "public"."delete_instagram_user_data"(text) FROM PUBLIC, "anon", "authenticated";

CREATE OR REPLACE FUNCTION public.instagram_access_removed (
  p_instagram_user_id text
)
  RETURNS integer
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  account record;
  changed integer := 0;
begin
  for account in
    select a.id, a.username
      from public.social_accounts a
      join public.platforms p on p.id = a.platform_id and p.name = 'instagram'
     where a.connection = 'official' and a.platform_user_id = p_instagram_user_id
  loop
    if internal.instagram_token_failed(account.id,
         format('Reachflow''s access to @%s was removed on Instagram (Settings › Apps and websites). Connect the account again from Accounts to keep its automations running.', account.username)) then
      changed := changed + 1;
    end if;
  end loop;
  return changed;
end
$function$;

REVOKE ALL ON FUNCTION "public"."instagram_access_removed"(text) FROM PUBLIC, "anon", "authenticated";

CREATE OR REPLACE FUNCTION public.instagram_data_deletion_status (
  p_code text
)
  RETURNS jsonb
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  select jsonb_build_object('confirmation_code', d.confirmation_code, 'status', 'completed',
                            'requested_at', d.requested_at, 'accounts_deleted', d.accounts_deleted)
    from internal.instagram_data_deletions d
   where d.confirmation_code = upper(btrim(p_code))
$function$;

REVOKE ALL ON FUNCTION "public"."instagram_data_deletion_status"(text) FROM PUBLIC, "anon", "authenticated";

COMMENT ON FUNCTION "public"."delete_instagram_user_data"(text) IS 'The instagram-webhook function, on Meta''s data deletion callback: deletes the official accounts of that Instagram user (their automations, runs, conversations and sealed tokens go with them) and the webhook events Meta delivered for them, tells each owner, and answers the confirmation code Meta shows the person.';

COMMENT ON FUNCTION "public"."instagram_access_removed"(text) IS 'The instagram-webhook function, on Meta''s deauthorize callback (the person removed Reachflow in Instagram''s settings): every official account of that Instagram user turns error with the reason and its owner is told. Answers how many changed.';

COMMENT ON FUNCTION "public"."instagram_data_deletion_status"(text) IS 'The instagram-webhook function, for the public page Meta links a person to after a data deletion request: by its confirmation code (unguessable, 64 bits), whether and when the deletion was done; null for an unknown code.';

COMMENT ON TABLE "internal"."instagram_data_deletions" IS 'Data deletion requests Meta relayed for people who removed Reachflow on Instagram: the confirmation code given back and what was deleted, nothing about the person (their data is gone). Read only through public.instagram_data_deletion_status (service role).';

REVOKE ALL ON FUNCTION "public"."delete_instagram_user_data"(text) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."delete_instagram_user_data"(text) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."delete_instagram_user_data"(text) TO "service_role";

REVOKE ALL ON FUNCTION "public"."instagram_access_removed"(text) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."instagram_access_removed"(text) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."instagram_access_removed"(text) TO "service_role";

REVOKE ALL ON FUNCTION "public"."instagram_data_deletion_status"(text) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."instagram_data_deletion_status"(text) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."instagram_data_deletion_status"(text) TO "service_role";
