-- The workspace's activity log: who launched, paused or resumed a campaign, answered from the inbox,
-- assigned a conversation, changed members, connected or removed an account, or created, enabled or
-- disabled an automation. Written only by triggers on those tables, so every path (web, product API,
-- runner, scheduler) is covered; the last file because its triggers sit on every domain's tables.

-- Tables ------------------------------------------------------------------------------------------

create table public.workspace_activity (
  id uuid not null default gen_random_uuid(),
  workspace_id uuid not null,
  actor_id uuid,
  actor_label text,
  action text not null,
  subject_type text not null,
  subject_id uuid,
  subject_label text,
  details jsonb not null default '{}'::jsonb,
  at timestamp with time zone not null default internal.now(),
  constraint workspace_activity_pkey primary key (id),
  constraint workspace_activity_action_check check ((action = any (array['campaign.launched'::text, 'campaign.paused'::text, 'campaign.resumed'::text, 'inbox.answered'::text, 'inbox.assigned'::text, 'member.joined'::text, 'member.role_changed'::text, 'member.removed'::text, 'account.connected'::text, 'account.removed'::text, 'automation.created'::text, 'automation.enabled'::text, 'automation.disabled'::text]))),
  constraint workspace_activity_details_check check ((jsonb_typeof(details) = 'object'::text)),
  constraint workspace_activity_subject_type_check check ((subject_type = any (array['campaign'::text, 'conversation'::text, 'member'::text, 'account'::text, 'automation'::text]))),
  constraint workspace_activity_actor_id_fkey foreign key (actor_id) references auth.users(id) on delete set null,
  constraint workspace_activity_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.workspace_activity is
  'What happened in a workspace and who did it, written by triggers only (no client or runner writes). Owners and admins read it on the Activity page.';
comment on column public.workspace_activity.actor_id is
  'The person who did it; null when Reachflow did (the runner, the scheduler) or the person''s login was deleted (actor_label still names them).';
comment on column public.workspace_activity.actor_label is
  'The actor''s e-mail when it happened; null when Reachflow did it.';
comment on column public.workspace_activity.subject_label is
  'The subject''s name when it happened (campaign name, @username, member e-mail), so the log reads the same after the subject is gone.';
comment on column public.workspace_activity.at is 'When it happened (internal.now(), the test clock).';

-- Indexes -----------------------------------------------------------------------------------------

create index workspace_activity_workspace_id_at_idx on public.workspace_activity (workspace_id, at desc, id);
create index workspace_activity_actor_id_idx on public.workspace_activity (actor_id);

-- Triggers ----------------------------------------------------------------------------------------

create or replace function internal.log_workspace_activity(p_workspace_id uuid, p_actor_id uuid, p_action text, p_subject_type text, p_subject_id uuid, p_subject_label text, p_details jsonb default '{}'::jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
comment on function internal.log_workspace_activity(uuid, uuid, text, text, uuid, text, jsonb) is
  'Appends one line to a workspace''s activity log (skipped while the workspace itself is being deleted).';

create or replace function internal.log_campaign_status_activity()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
comment on function internal.log_campaign_status_activity() is
  'Logs a campaign launched (from draft, error or failed), paused or resumed (from paused), by the caller or by Reachflow.';

create or replace function internal.log_inbox_answer_activity()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- only a person answers from the inbox; the runner's own outgoing records have no caller
  if auth.uid() is null then
    return null;
  end if;
  perform internal.log_workspace_activity(new.workspace_id, auth.uid(), 'inbox.answered', 'conversation', new.thread_id,
    (select '@' || t.peer_username from public.inbox_threads t where t.id = new.thread_id));
  return null;
end
$$;
comment on function internal.log_inbox_answer_activity() is
  'Logs an answer a person sent from the inbox (not its text: the log is for the team, the text is in the conversation).';

create or replace function internal.log_inbox_assignment_activity()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform internal.log_workspace_activity(new.workspace_id, auth.uid(), 'inbox.assigned', 'conversation', new.id,
    '@' || new.peer_username,
    jsonb_build_object('assigned_to', (select u.email from auth.users u where u.id = new.assigned_to)));
  return null;
end
$$;
comment on function internal.log_inbox_assignment_activity() is
  'Logs a conversation assigned to a member (details.assigned_to their e-mail) or unassigned (null).';

create or replace function internal.log_member_activity()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
comment on function internal.log_member_activity() is
  'Logs a member who joined, whose role changed, or who was removed (or left).';

create or replace function internal.log_social_account_activity()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
comment on function internal.log_social_account_activity() is
  'Logs an account connected (by its creator) or removed.';

create or replace function internal.log_automation_activity()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
comment on function internal.log_automation_activity() is
  'Logs an automation created (by its creator), enabled or disabled (by the caller, or Reachflow).';

create trigger campaigns_log_activity_on_insert after insert on public.campaigns for each row execute function internal.log_campaign_status_activity();

create trigger campaigns_log_activity_on_status after update of status on public.campaigns for each row when ((old.status is distinct from new.status)) execute function internal.log_campaign_status_activity();

create trigger inbox_messages_log_answer_activity after insert on public.inbox_messages for each row when (((new.direction = 'outgoing'::text) and (new.origin = 'reachflow'::text))) execute function internal.log_inbox_answer_activity();

create trigger inbox_threads_log_assignment_activity after update of assigned_to on public.inbox_threads for each row when ((old.assigned_to is distinct from new.assigned_to)) execute function internal.log_inbox_assignment_activity();

create trigger workspace_members_log_activity after insert or delete on public.workspace_members for each row execute function internal.log_member_activity();

create trigger workspace_members_log_role_activity after update of role on public.workspace_members for each row when ((old.role is distinct from new.role)) execute function internal.log_member_activity();

create trigger social_accounts_log_activity after insert or delete on public.social_accounts for each row execute function internal.log_social_account_activity();

create trigger instagram_automations_log_activity_on_insert after insert on public.instagram_automations for each row execute function internal.log_automation_activity();

create trigger instagram_automations_log_activity_on_enabled after update of enabled on public.instagram_automations for each row when ((old.enabled is distinct from new.enabled)) execute function internal.log_automation_activity();

-- Row-level security ------------------------------------------------------------------------------

alter table public.workspace_activity enable row level security;

create policy "Owners and admins read their workspace's activity" on public.workspace_activity
  for select
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin}'::public.workspace_role[]) as active_workspace_with_role)));

-- Grants ------------------------------------------------------------------------------------------

revoke all on public.workspace_activity from anon;
revoke insert, update, delete, truncate, references, trigger on public.workspace_activity from authenticated;

revoke execute on function internal.log_automation_activity() from public;
revoke execute on function internal.log_campaign_status_activity() from public;
revoke execute on function internal.log_inbox_answer_activity() from public;
revoke execute on function internal.log_inbox_assignment_activity() from public;
revoke execute on function internal.log_member_activity() from public;
revoke execute on function internal.log_social_account_activity() from public;
revoke execute on function internal.log_workspace_activity(uuid, uuid, text, text, uuid, text, jsonb) from public;
