-- Automations on official Instagram accounts: a keyword in a comment (one post or any), a keyword in
-- a DM, a story mention or reply, answered with a DM (a private reply for a comment) and optionally a
-- public reply; each answer, or Instagram's refusal with its reason, is one run, at most one per
-- comment or message, so a comment Meta delivers twice is answered once. The runner works the
-- instagram.event jobs the webhook queues.
-- Written by `npm run db:diff` (pg-delta) from supabase/schemas.

SET local check_function_bodies = off;

CREATE TABLE "public"."instagram_automation_runs" (
  "id"              uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "automation_id"   uuid                     NOT NULL,
  "user_id"         uuid                     NOT NULL,
  "account_id"      uuid                     NOT NULL,
  "trigger_key"     text                     NOT NULL,
  "person_id"       text                     NOT NULL,
  "person_username" text,
  "status"          text                     NOT NULL DEFAULT 'sending'::text,
  "reason"          text,
  "message_id"      text,
  "public_reply_id" text,
  "created_at"      timestamp with time zone NOT NULL DEFAULT now(),
  "updated_at"      timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "instagram_automation_runs_account_trigger_key" UNIQUE (account_id, trigger_key),
  CONSTRAINT "instagram_automation_runs_pkey" PRIMARY KEY (id),
  CONSTRAINT "instagram_automation_runs_status_check" CHECK ((status = ANY (ARRAY['sending'::text, 'sent'::text, 'refused'::text, 'failed'::text])))
);

ALTER TABLE "public"."instagram_automation_runs"
  ENABLE ROW LEVEL SECURITY;

REVOKE ALL ON TABLE "public"."instagram_automation_runs" FROM "anon";

CREATE TABLE "public"."instagram_automations" (
  "id"                uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "account_id"        uuid                     NOT NULL,
  "name"              text                     NOT NULL,
  "trigger"           text                     NOT NULL,
  "media_id"          text,
  "keywords"          text[]                   NOT NULL DEFAULT '{}'::text[],
  "reply_text"        text                     NOT NULL,
  "public_reply_text" text,
  "enabled"           boolean                  NOT NULL DEFAULT true,
  "created_at"        timestamp with time zone NOT NULL DEFAULT now(),
  "updated_at"        timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "instagram_automations_keywords_check"
    CHECK (((cardinality(keywords) <= 20) AND ((trigger <> ALL (ARRAY['comment_keyword'::text, 'dm_keyword'::text])) OR (cardinality(keywords) >= 1)))),
  CONSTRAINT "instagram_automations_media_id_check" CHECK (((media_id IS NULL) OR ((trigger = 'comment_keyword'::text) AND (media_id ~ '^[0-9]{1,30}$'::text)))),
  CONSTRAINT "instagram_automations_name_check" CHECK (((char_length(name) >= 1) AND (char_length(name) <= 100))),
  CONSTRAINT "instagram_automations_pkey" PRIMARY KEY (id),
  CONSTRAINT "instagram_automations_public_reply_text_check"
    CHECK (((public_reply_text IS NULL) OR ((trigger = 'comment_keyword'::text) AND (char_length(public_reply_text) >= 1) AND (char_length(public_reply_text) <= 2200)))),
  CONSTRAINT "instagram_automations_reply_text_check" CHECK (((char_length(reply_text) >= 1) AND (octet_length(reply_text) <= 1000))),
  CONSTRAINT "instagram_automations_trigger_check" CHECK ((trigger = ANY (ARRAY['comment_keyword'::text, 'dm_keyword'::text, 'story_mention'::text, 'story_reply'::text]))),
  "user_id"           uuid                     NOT NULL DEFAULT auth.uid()
);

ALTER TABLE "public"."instagram_automations"
  ENABLE ROW LEVEL SECURITY;

REVOKE ALL ON TABLE "public"."instagram_automations" FROM "anon";

CREATE OR REPLACE FUNCTION internal.begin_instagram_automation_run (
  p_automation_id   uuid,
  p_trigger_key     text,
  p_person_id       text,
  p_person_username text
)
  RETURNS uuid
  LANGUAGE sql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  insert into public.instagram_automation_runs (automation_id, user_id, account_id, trigger_key, person_id, person_username)
  select au.id, au.user_id, au.account_id, p_trigger_key, p_person_id, p_person_username
    from public.instagram_automations au
   where au.id = p_automation_id
  on conflict (account_id, trigger_key) do nothing
  returning id
$function$;

CREATE OR REPLACE FUNCTION internal.check_instagram_automation_account()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if not exists (select 1 from public.social_accounts a join public.platforms p on p.id = a.platform_id
                  where a.id = new.account_id and a.user_id = new.user_id and a.connection = 'official' and p.name = 'instagram') then
    raise exception 'Automations run on an Instagram account connected through Instagram''s API. Choose one of yours.'
      using errcode = '23503';
  end if;
  return new;
end
$function$;

CREATE OR REPLACE FUNCTION internal.finish_instagram_automation_run (
  p_run_id          uuid,
  p_status          text,
  p_reason          text,
  p_message_id      text,
  p_public_reply_id text
)
  RETURNS void
  LANGUAGE sql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  update public.instagram_automation_runs r
     set status = p_status, reason = left(p_reason, 500), message_id = p_message_id, public_reply_id = p_public_reply_id,
         updated_at = now()
   where r.id = p_run_id
$function$;

ALTER TABLE "public"."instagram_automation_runs"
  ADD CONSTRAINT "instagram_automation_runs_account_id_fkey" FOREIGN KEY (account_id) REFERENCES public.social_accounts(id) ON DELETE CASCADE;

ALTER TABLE "public"."instagram_automation_runs"
  ADD CONSTRAINT "instagram_automation_runs_user_id_fkey" FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE;

ALTER TABLE "public"."instagram_automations"
  ADD CONSTRAINT "instagram_automations_account_id_fkey" FOREIGN KEY (account_id) REFERENCES public.social_accounts(id) ON DELETE CASCADE;

ALTER TABLE "public"."instagram_automation_runs"
  ADD CONSTRAINT "instagram_automation_runs_automation_id_fkey" FOREIGN KEY (automation_id) REFERENCES public.instagram_automations(id) ON DELETE CASCADE;

CREATE INDEX instagram_automation_runs_automation_id_idx ON public.instagram_automation_runs USING btree (automation_id, created_at);

CREATE INDEX instagram_automation_runs_user_id_idx ON public.instagram_automation_runs USING btree (user_id);

CREATE INDEX instagram_automations_account_id_idx ON public.instagram_automations USING btree (account_id)
  WHERE enabled;

CREATE TRIGGER instagram_automations_set_updated_at
  BEFORE UPDATE ON public.instagram_automations
  FOR EACH ROW
  EXECUTE FUNCTION internal.set_updated_at();

CREATE POLICY "The runner reads delivered Instagram events" ON "internal"."instagram_webhook_events"
  FOR SELECT
  TO "reachflow_runner"
  USING (true);

CREATE POLICY "Customers read their own automation runs" ON "public"."instagram_automation_runs"
  FOR SELECT
  TO "authenticated"
  USING ((user_id = ( SELECT auth.uid() AS uid)));

CREATE POLICY "The runner reads every automation run" ON "public"."instagram_automation_runs"
  FOR SELECT
  TO "reachflow_runner"
  USING (true);

CREATE POLICY "The runner reads every automation" ON "public"."instagram_automations"
  FOR SELECT
  TO "reachflow_runner"
  USING (true);

COMMENT ON COLUMN "public"."instagram_automation_runs"."reason" IS 'refused or failed: the platform''s reason, as the customer should read it.';

COMMENT ON COLUMN "public"."instagram_automations"."keywords" IS 'Matched as whole words, ignoring case; required for the keyword triggers, optional (empty = any) for story mentions and replies.';

COMMENT ON COLUMN "public"."instagram_automations"."media_id" IS 'comment_keyword only: the post or reel it watches; null = any post.';

COMMENT ON FUNCTION "internal"."begin_instagram_automation_run"(uuid, text, text, text) IS 'The runner, before it answers a comment or message: claims it (null when it was already answered, or is being).';

COMMENT ON FUNCTION "internal"."check_instagram_automation_account"() IS 'An automation belongs to one of its owner''s official Instagram accounts.';

COMMENT ON FUNCTION "internal"."finish_instagram_automation_run"(uuid, text, text, text, text) IS 'The runner, after Instagram answered: sent (with the message and public reply ids), refused (with Instagram''s reason) or failed.';

COMMENT ON TABLE "public"."instagram_automation_runs" IS 'Each time an automation answered (or was refused): at most one per account and comment or message, so a comment gets one private reply however often Meta delivers it. Written by the runner.';

COMMENT ON TABLE "public"."instagram_automations" IS 'A customer''s automation on an official Instagram account: a keyword in a comment (on one post or reel, or any), a keyword in a DM, or a story mention or reply, answered with a DM (a private reply for a comment) and, for a comment, an optional public reply.';

REVOKE ALL ON FUNCTION "internal"."begin_instagram_automation_run"(uuid, text, text, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "internal"."begin_instagram_automation_run"(uuid, text, text, text) TO "reachflow_runner";

REVOKE ALL ON FUNCTION "internal"."check_instagram_automation_account"() FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."finish_instagram_automation_run"(uuid, text, text, text, text) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "internal"."finish_instagram_automation_run"(uuid, text, text, text, text) TO "reachflow_runner";

REVOKE ALL ON TABLE "internal"."instagram_webhook_events" FROM "reachflow_runner";

GRANT SELECT ON TABLE "internal"."instagram_webhook_events" TO "reachflow_runner";

REVOKE ALL ON TABLE "public"."instagram_automation_runs" FROM "authenticated";

GRANT SELECT ON TABLE "public"."instagram_automation_runs" TO "authenticated";

REVOKE ALL ON TABLE "public"."instagram_automation_runs" FROM "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."instagram_automation_runs" TO "postgres";

GRANT SELECT ON TABLE "public"."instagram_automation_runs" TO "reachflow_runner";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."instagram_automation_runs" TO "service_role";

REVOKE ALL ON TABLE "public"."instagram_automations" FROM "authenticated";

GRANT DELETE, INSERT, SELECT, UPDATE ON TABLE "public"."instagram_automations" TO "authenticated";

REVOKE ALL ON TABLE "public"."instagram_automations" FROM "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."instagram_automations" TO "postgres";

GRANT SELECT ON TABLE "public"."instagram_automations" TO "reachflow_runner";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."instagram_automations" TO "service_role";

ALTER TABLE "public"."instagram_automations"
  ADD CONSTRAINT "instagram_automations_user_id_fkey" FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE;

CREATE INDEX instagram_automations_user_id_idx ON public.instagram_automations USING btree (user_id);

CREATE TRIGGER instagram_automations_check_account
  BEFORE INSERT OR UPDATE OF account_id, user_id ON public.instagram_automations
  FOR EACH ROW
  EXECUTE FUNCTION internal.check_instagram_automation_account();

CREATE POLICY "Customers add automations of their own" ON "public"."instagram_automations"
  FOR INSERT
  TO "authenticated"
  WITH CHECK ((user_id = ( SELECT auth.uid() AS uid)));

CREATE POLICY "Customers change their own automations" ON "public"."instagram_automations"
  FOR UPDATE
  TO "authenticated"
  USING ((user_id = ( SELECT auth.uid() AS uid)))
  WITH CHECK ((user_id = ( SELECT auth.uid() AS uid)));

CREATE POLICY "Customers delete their own automations" ON "public"."instagram_automations"
  FOR DELETE
  TO "authenticated"
  USING ((user_id = ( SELECT auth.uid() AS uid)));

CREATE POLICY "Customers read their own automations" ON "public"."instagram_automations"
  FOR SELECT
  TO "authenticated"
  USING ((user_id = ( SELECT auth.uid() AS uid)));
