-- Workspaces, part 3: the inbox's assignment (inbox_threads.assigned_to, assign_thread, unassigned
-- when the member leaves or becomes a viewer), internal notes the runner cannot read
-- (inbox_thread_notes), and the workspace's activity log (workspace_activity) written by triggers on
-- campaigns, inbox messages and threads, members, accounts and automations, so every path is logged.

SET local check_function_bodies = off;

CREATE TABLE "public"."inbox_thread_notes" (
  "id"           uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "thread_id"    uuid                     NOT NULL,
  "workspace_id" uuid                     NOT NULL,
  "author_id"    uuid                     DEFAULT auth.uid(),
  "body"         text                     NOT NULL,
  "created_at"   timestamp with time zone NOT NULL DEFAULT now(),
  "updated_at"   timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "inbox_thread_notes_body_check" CHECK (((char_length(btrim(body)) >= 1) AND (char_length(body) <= 2000))),
  CONSTRAINT "inbox_thread_notes_pkey" PRIMARY KEY (id)
);

ALTER TABLE "public"."inbox_thread_notes"
  ENABLE ROW LEVEL SECURITY;

REVOKE ALL ON TABLE "public"."inbox_thread_notes" FROM "anon";

CREATE TABLE "public"."workspace_activity" (
  "id"            uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "workspace_id"  uuid                     NOT NULL,
  "actor_id"      uuid,
  "actor_label"   text,
  "action"        text                     NOT NULL,
  "subject_type"  text                     NOT NULL,
  "subject_id"    uuid,
  "subject_label" text,
  "details"       jsonb                    NOT NULL DEFAULT '{}'::jsonb,
  CONSTRAINT "workspace_activity_action_check"
    CHECK
    ((action = ANY (ARRAY['campaign.launched'::text, 'campaign.paused'::text, 'campaign.resumed'::text, 'inbox.answered'::text, 'inbox.assigned'::text, 'member.joined'::text,
    'member.role_changed'::text,
    'member.removed'::text, 'account.connected'::text, 'account.removed'::text, 'automation.created'::text, 'automation.enabled'::text, 'automation.disabled'::text]))),
  CONSTRAINT "workspace_activity_details_check" CHECK ((jsonb_typeof(details) = 'object'::text)),
  CONSTRAINT "workspace_activity_pkey" PRIMARY KEY (id),
  CONSTRAINT "workspace_activity_subject_type_check"
    CHECK ((subject_type = ANY (ARRAY['campaign'::text, 'conversation'::text, 'member'::text, 'account'::text, 'automation'::text]))),
  "at"            timestamp with time zone NOT NULL DEFAULT internal.now()
);

ALTER TABLE "public"."workspace_activity"
  ENABLE ROW LEVEL SECURITY;

REVOKE ALL ON TABLE "public"."workspace_activity" FROM "anon";

ALTER TABLE "public"."inbox_threads"
  ADD COLUMN "assigned_to" uuid;

CREATE OR REPLACE FUNCTION internal.log_automation_activity()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if tg_op = 'INSERT' then
    perform internal.log_workspace_activity(new.workspace_id, coalesce(auth.uid(), new.user_id), 'automation.created',
      'automation', new.id, new.name);
  else
    perform internal.log_workspace_activity(new.workspace_id, auth.uid(),
      case when new.enabled then 'automation.enabled' else 'automation.disabled' end, 'automation', new.id, new.name);
  end if;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION internal.log_campaign_status_activity()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  sending constant text[] := '{queued,running,active}';
  previous text := case when tg_op = 'UPDATE' then old.status end;
  action text;
begin
  if new.status = any (sending) and (previous is null or not previous = any (sending)) then
    action := case when previous = 'paused' then 'campaign.resumed' else 'campaign.launched' end;
  elsif new.status = 'paused' and previous is distinct from 'paused' then
    action := 'campaign.paused';
  else
    return null;
  end if;
  -- no signed-in caller means the runner or the scheduler changed it: the log says Reachflow
  perform internal.log_workspace_activity(new.workspace_id, auth.uid(), action, 'campaign', new.id, new.name,
    jsonb_build_object('from', previous, 'to', new.status));
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION internal.log_inbox_answer_activity()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  -- only a person answers from the inbox; the runner's own outgoing records have no caller
  if auth.uid() is null then
    return null;
  end if;
  perform internal.log_workspace_activity(new.workspace_id, auth.uid(), 'inbox.answered', 'conversation', new.thread_id,
    (select '@' || t.peer_username from public.inbox_threads t where t.id = new.thread_id));
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION internal.log_inbox_assignment_activity()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  perform internal.log_workspace_activity(new.workspace_id, auth.uid(), 'inbox.assigned', 'conversation', new.id,
    '@' || new.peer_username,
    jsonb_build_object('assigned_to', (select u.email from auth.users u where u.id = new.assigned_to)));
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION internal.log_member_activity()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  member uuid := case when tg_op = 'DELETE' then old.user_id else new.user_id end;
  email text := (select u.email from auth.users u where u.id = member);
begin
  if tg_op = 'INSERT' then
    perform internal.log_workspace_activity(new.workspace_id, auth.uid(), 'member.joined', 'member', member, email,
      jsonb_build_object('role', new.role));
  elsif tg_op = 'UPDATE' then
    perform internal.log_workspace_activity(new.workspace_id, auth.uid(), 'member.role_changed', 'member', member, email,
      jsonb_build_object('from', old.role, 'to', new.role));
  else
    perform internal.log_workspace_activity(old.workspace_id, auth.uid(), 'member.removed', 'member', member, email,
      jsonb_build_object('role', old.role));
  end if;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION internal.log_social_account_activity()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if tg_op = 'INSERT' then
    -- the api function connects accounts with the service role: the row's creator is the actor
    perform internal.log_workspace_activity(new.workspace_id, coalesce(auth.uid(), new.user_id), 'account.connected',
      'account', new.id, '@' || new.username,
      jsonb_build_object('platform', (select p.name from public.platforms p where p.id = new.platform_id)));
  else
    perform internal.log_workspace_activity(old.workspace_id, auth.uid(), 'account.removed', 'account', old.id,
      '@' || old.username,
      jsonb_build_object('platform', (select p.name from public.platforms p where p.id = old.platform_id)));
  end if;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION internal.log_workspace_activity (
  p_workspace_id  uuid,
  p_actor_id      uuid,
  p_action        text,
  p_subject_type  text,
  p_subject_id    uuid,
  p_subject_label text,
  p_details       jsonb DEFAULT '{}'::jsonb
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  -- a row removed because its whole workspace is being deleted leaves no trace in that workspace
  if not exists (select 1 from public.workspaces w where w.id = p_workspace_id) then
    return;
  end if;
  insert into public.workspace_activity (workspace_id, actor_id, actor_label, action, subject_type, subject_id, subject_label, details)
  values (p_workspace_id,
          (select u.id from auth.users u where u.id = p_actor_id),
          (select u.email from auth.users u where u.id = p_actor_id),
          p_action, p_subject_type, p_subject_id, p_subject_label, coalesce(p_details, '{}'::jsonb));
end
$function$;

CREATE OR REPLACE FUNCTION internal.stamp_inbox_thread_note()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  -- a note belongs to its thread's workspace and to whoever wrote it, whatever the client sent
  new.workspace_id := (select t.workspace_id from public.inbox_threads t where t.id = new.thread_id);
  new.author_id := coalesce(auth.uid(), new.author_id);
  new.body := pg_catalog.btrim(new.body);
  return new;
end
$function$;

CREATE OR REPLACE FUNCTION internal.unassign_inbox_threads_of_member()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  update public.inbox_threads t set assigned_to = null
   where t.workspace_id = old.workspace_id and t.assigned_to = old.user_id;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION public.assign_thread (
  p_thread_id uuid,
  p_member    uuid
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  thread public.inbox_threads;
  member_role public.workspace_role;
begin
  select * into thread from public.inbox_threads t
   where t.id = p_thread_id and t.workspace_id = internal.active_workspace_id();
  if thread.id is null then
    raise exception 'Conversation not found' using errcode = 'PT404';
  end if;
  if not internal.has_role_on_workspace(thread.workspace_id, '{owner,admin,editor,agent}') then
    raise exception 'Your role in this workspace does not allow this.' using errcode = '42501';
  end if;
  if p_member is not null then
    select m.role into member_role from public.workspace_members m
     where m.workspace_id = thread.workspace_id and m.user_id = p_member;
    if member_role is null then
      raise exception 'That person is not a member of this workspace.' using errcode = '22023';
    end if;
    if member_role = 'viewer' then
      raise exception 'A viewer cannot use the inbox. Change their role first.' using errcode = '22023';
    end if;
  end if;
  update public.inbox_threads t set assigned_to = p_member
   where t.id = thread.id and t.assigned_to is distinct from p_member;
end
$function$;

REVOKE ALL ON FUNCTION "public"."assign_thread"(uuid, uuid) FROM PUBLIC, "anon";

CREATE OR REPLACE FUNCTION public.workspace_people()
  RETURNS TABLE (
    user_id   uuid,
    email     text,
    full_name text,
    role      public.workspace_role
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  select m.user_id, u.email::text, p.full_name, m.role
    from public.workspace_members m
    join auth.users u on u.id = m.user_id
    left join public.user_profiles p on p.id = m.user_id
   where m.workspace_id = internal.active_workspace_id()
   order by lower(coalesce(nullif(p.full_name, ''), u.email::text)), m.user_id
$function$;

REVOKE ALL ON FUNCTION "public"."workspace_people"() FROM PUBLIC, "anon";

ALTER TABLE "public"."inbox_thread_notes"
  ADD CONSTRAINT "inbox_thread_notes_thread_id_fkey" FOREIGN KEY (thread_id) REFERENCES public.inbox_threads(id) ON DELETE CASCADE;

ALTER TABLE "public"."inbox_thread_notes"
  ADD CONSTRAINT "inbox_thread_notes_workspace_id_fkey" FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

ALTER TABLE "public"."inbox_threads"
  ADD CONSTRAINT "inbox_threads_assigned_to_fkey" FOREIGN KEY (assigned_to) REFERENCES auth.users(id) ON DELETE SET NULL;

ALTER TABLE "public"."workspace_activity"
  ADD CONSTRAINT "workspace_activity_actor_id_fkey" FOREIGN KEY (actor_id) REFERENCES auth.users(id) ON DELETE SET NULL;

ALTER TABLE "public"."workspace_activity"
  ADD CONSTRAINT "workspace_activity_workspace_id_fkey" FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

CREATE INDEX inbox_thread_notes_thread_id_created_at_idx ON public.inbox_thread_notes USING btree (thread_id, created_at);

CREATE INDEX inbox_thread_notes_workspace_id_idx ON public.inbox_thread_notes USING btree (workspace_id);

CREATE INDEX inbox_threads_assigned_to_idx ON public.inbox_threads USING btree (assigned_to)
  WHERE (assigned_to IS NOT NULL);

CREATE INDEX workspace_activity_actor_id_idx ON public.workspace_activity USING btree (actor_id);

CREATE TRIGGER campaigns_log_activity_on_insert
  AFTER INSERT ON public.campaigns
  FOR EACH ROW
  EXECUTE FUNCTION internal.log_campaign_status_activity();

CREATE TRIGGER campaigns_log_activity_on_status
  AFTER UPDATE OF status ON public.campaigns
  FOR EACH ROW
  WHEN ((old.status IS DISTINCT FROM new.status))
  EXECUTE FUNCTION internal.log_campaign_status_activity();

CREATE TRIGGER inbox_messages_log_answer_activity
  AFTER INSERT ON public.inbox_messages
  FOR EACH ROW
  WHEN (((new.direction = 'outgoing'::text) AND (new.origin = 'reachflow'::text)))
  EXECUTE FUNCTION internal.log_inbox_answer_activity();

CREATE TRIGGER inbox_thread_notes_set_updated_at
  BEFORE UPDATE ON public.inbox_thread_notes
  FOR EACH ROW
  EXECUTE FUNCTION internal.set_updated_at();

CREATE TRIGGER inbox_thread_notes_stamp_thread_and_author
  BEFORE INSERT ON public.inbox_thread_notes
  FOR EACH ROW
  EXECUTE FUNCTION internal.stamp_inbox_thread_note();

CREATE TRIGGER inbox_threads_log_assignment_activity
  AFTER UPDATE OF assigned_to ON public.inbox_threads
  FOR EACH ROW
  WHEN ((old.assigned_to IS DISTINCT FROM new.assigned_to))
  EXECUTE FUNCTION internal.log_inbox_assignment_activity();

CREATE TRIGGER instagram_automations_log_activity_on_enabled
  AFTER UPDATE OF enabled ON public.instagram_automations
  FOR EACH ROW
  WHEN ((old.enabled IS DISTINCT FROM new.enabled))
  EXECUTE FUNCTION internal.log_automation_activity();

CREATE TRIGGER instagram_automations_log_activity_on_insert
  AFTER INSERT ON public.instagram_automations
  FOR EACH ROW
  EXECUTE FUNCTION internal.log_automation_activity();

CREATE TRIGGER social_accounts_log_activity
  AFTER INSERT OR DELETE ON public.social_accounts
  FOR EACH ROW
  EXECUTE FUNCTION internal.log_social_account_activity();

CREATE TRIGGER workspace_members_log_activity
  AFTER INSERT OR DELETE ON public.workspace_members
  FOR EACH ROW
  EXECUTE FUNCTION internal.log_member_activity();

CREATE TRIGGER workspace_members_log_role_activity
  AFTER UPDATE OF ROLE ON public.workspace_members
  FOR EACH ROW
  WHEN ((old.role IS DISTINCT FROM new.role))
  EXECUTE FUNCTION internal.log_member_activity();

CREATE TRIGGER workspace_members_unassign_inbox_threads_of_viewer
  AFTER UPDATE OF ROLE ON public.workspace_members
  FOR EACH ROW
  WHEN (((new.role = 'viewer'::public.workspace_role) AND (old.role <> 'viewer'::public.workspace_role)))
  EXECUTE FUNCTION internal.unassign_inbox_threads_of_member();

CREATE TRIGGER workspace_members_unassign_inbox_threads
  AFTER DELETE ON public.workspace_members
  FOR EACH ROW
  EXECUTE FUNCTION internal.unassign_inbox_threads_of_member();

CREATE POLICY "Inbox members read their workspace's notes" ON "public"."inbox_thread_notes"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,agent}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Owners and admins read their workspace's activity" ON "public"."workspace_activity"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin}'::public.workspace_role[]) AS active_workspace_with_role)));

COMMENT ON COLUMN "public"."inbox_thread_notes"."workspace_id" IS 'Always the thread''s workspace (set on insert, whatever the client sends).';

COMMENT ON COLUMN "public"."inbox_threads"."assigned_to" IS 'The member who handles the conversation (public.assign_thread), or null. Always a member of the thread''s workspace who may use the inbox: leaving the workspace or becoming a viewer unassigns them.';

COMMENT ON COLUMN "public"."workspace_activity"."actor_id" IS 'The person who did it; null when Reachflow did (the runner, the scheduler) or the person''s login was deleted (actor_label still names them).';

COMMENT ON COLUMN "public"."workspace_activity"."actor_label" IS 'The actor''s e-mail when it happened; null when Reachflow did it.';

COMMENT ON COLUMN "public"."workspace_activity"."subject_label" IS 'The subject''s name when it happened (campaign name, @username, member e-mail), so the log reads the same after the subject is gone.';

COMMENT ON FUNCTION "internal"."log_automation_activity"() IS 'Logs an automation created (by its creator), enabled or disabled (by the caller, or Reachflow).';

COMMENT ON FUNCTION "internal"."log_campaign_status_activity"() IS 'Logs a campaign launched (from draft, error or failed), paused or resumed (from paused), by the caller or by Reachflow.';

COMMENT ON FUNCTION "internal"."log_inbox_answer_activity"() IS 'Logs an answer a person sent from the inbox (not its text: the log is for the team, the text is in the conversation).';

COMMENT ON FUNCTION "internal"."log_inbox_assignment_activity"() IS 'Logs a conversation assigned to a member (details.assigned_to their e-mail) or unassigned (null).';

COMMENT ON FUNCTION "internal"."log_member_activity"() IS 'Logs a member who joined, whose role changed, or who was removed (or left).';

COMMENT ON FUNCTION "internal"."log_social_account_activity"() IS 'Logs an account connected (by its creator) or removed.';

COMMENT ON FUNCTION "internal"."log_workspace_activity"(uuid, uuid, text, text, uuid, text, jsonb) IS 'Appends one line to a workspace''s activity log (skipped while the workspace itself is being deleted).';

COMMENT ON FUNCTION "internal"."stamp_inbox_thread_note"() IS 'BEFORE INSERT on inbox_thread_notes: the thread''s workspace, the caller as author, the text trimmed.';

COMMENT ON FUNCTION "internal"."unassign_inbox_threads_of_member"() IS 'A member who left the workspace, or can no longer use the inbox (now a viewer), handles none of its conversations.';

COMMENT ON FUNCTION "public"."assign_thread"(uuid, uuid) IS 'Assigns a conversation of the caller''s active workspace to one of its members who may use the inbox, or unassigns it (null). Inbox roles only.';

COMMENT ON FUNCTION "public"."workspace_people"() IS 'The members of the caller''s active workspace with their e-mail, name and role, by name: who a conversation can be assigned to, whose notes and activity these are.';

COMMENT ON TABLE "public"."inbox_thread_notes" IS 'Internal notes the team leaves on a conversation. Only the workspace''s inbox members read them; the runner has no grant on this table, so a note can never be sent to the lead.';

COMMENT ON TABLE "public"."workspace_activity" IS 'What happened in a workspace and who did it, written by triggers only (no client or runner writes). Owners and admins read it on the Activity page.';

REVOKE ALL ON FUNCTION "internal"."log_automation_activity"() FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."log_campaign_status_activity"() FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."log_inbox_answer_activity"() FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."log_inbox_assignment_activity"() FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."log_member_activity"() FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."log_social_account_activity"() FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."log_workspace_activity"(uuid, uuid, text, text, uuid, text, jsonb) FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."stamp_inbox_thread_note"() FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."unassign_inbox_threads_of_member"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "public"."assign_thread"(uuid, uuid) TO "authenticated";

REVOKE ALL ON FUNCTION "public"."assign_thread"(uuid, uuid) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."assign_thread"(uuid, uuid) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."assign_thread"(uuid, uuid) TO "service_role";

GRANT EXECUTE ON FUNCTION "public"."workspace_people"() TO "authenticated";

REVOKE ALL ON FUNCTION "public"."workspace_people"() FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."workspace_people"() TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."workspace_people"() TO "service_role";

REVOKE ALL ON TABLE "public"."inbox_thread_notes" FROM "authenticated";

REVOKE ALL ("body") ON TABLE "public"."inbox_thread_notes" FROM "authenticated";

GRANT INSERT ("body"), UPDATE ("body") ON TABLE "public"."inbox_thread_notes" TO "authenticated";

REVOKE ALL ("thread_id") ON TABLE "public"."inbox_thread_notes" FROM "authenticated";

GRANT INSERT ("thread_id") ON TABLE "public"."inbox_thread_notes" TO "authenticated";

GRANT DELETE, SELECT ON TABLE "public"."inbox_thread_notes" TO "authenticated";

REVOKE ALL ON TABLE "public"."inbox_thread_notes" FROM "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."inbox_thread_notes" TO "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."inbox_thread_notes" TO "service_role";

REVOKE ALL ON TABLE "public"."workspace_activity" FROM "authenticated";

GRANT SELECT ON TABLE "public"."workspace_activity" TO "authenticated";

REVOKE ALL ON TABLE "public"."workspace_activity" FROM "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."workspace_activity" TO "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."workspace_activity" TO "service_role";

ALTER TABLE "public"."inbox_thread_notes"
  ADD CONSTRAINT "inbox_thread_notes_author_id_fkey" FOREIGN KEY (author_id) REFERENCES auth.users(id) ON DELETE SET NULL;

CREATE INDEX inbox_thread_notes_author_id_idx ON public.inbox_thread_notes USING btree (author_id);

CREATE POLICY "Authors delete their own notes" ON "public"."inbox_thread_notes"
  FOR DELETE
  TO "authenticated"
  USING
    (((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,agent}'::public.workspace_role[]) AS active_workspace_with_role)) AND (author_id = ( SELECT
    auth.uid() AS uid))));

CREATE POLICY "Authors edit their own notes" ON "public"."inbox_thread_notes"
  FOR UPDATE
  TO "authenticated"
  USING
    (((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,agent}'::public.workspace_role[]) AS active_workspace_with_role)) AND (author_id = ( SELECT
    auth.uid() AS uid))))
  WITH
    CHECK
    (((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,agent}'::public.workspace_role[]) AS active_workspace_with_role)) AND (author_id = ( SELECT
    auth.uid() AS uid))));

CREATE POLICY "Inbox members add notes in their workspace" ON "public"."inbox_thread_notes"
  FOR INSERT
  TO "authenticated"
  WITH
    CHECK
    (((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,agent}'::public.workspace_role[]) AS active_workspace_with_role)) AND (author_id = ( SELECT
    auth.uid() AS uid))));

COMMENT ON COLUMN "public"."inbox_thread_notes"."author_id" IS 'Who wrote it (the caller, set on insert); only they edit or delete it. Null once their login is deleted.';

CREATE INDEX workspace_activity_workspace_id_at_idx ON public.workspace_activity USING btree (workspace_id, at DESC, id);

COMMENT ON COLUMN "public"."workspace_activity"."at" IS 'When it happened (internal.now(), the test clock).';
