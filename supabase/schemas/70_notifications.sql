-- Notifications: what the bell shows a customer.

-- Tables ------------------------------------------------------------------------------------------

create table public.notifications (
  id uuid not null default gen_random_uuid(),
  user_id uuid not null,
  type text not null,
  title text not null,
  message text not null default ''::text,
  read boolean not null default false,
  read_at timestamp with time zone,
  metadata jsonb not null default '{}'::jsonb,
  created_at timestamp with time zone not null default now(),
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint notifications_pkey primary key (id),
  constraint notifications_message_check check ((char_length(message) <= 2000)),
  constraint notifications_metadata_check check ((jsonb_typeof(metadata) = 'object'::text)),
  constraint notifications_title_check check (((char_length(title) >= 1) and (char_length(title) <= 200))),
  constraint notifications_type_check check ((type ~ '^[a-z][a-z0-9_]{1,50}$'::text)),
  constraint notifications_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint notifications_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.notifications is
  'Bell notifications per customer, newest first. Written by the system; the customer marks them read.';
comment on column public.notifications.type is
  'campaign_completed, campaign_failed, account_flagged, warmup_phase_completed, scraping_completed, ...';
comment on column public.notifications.metadata is
  'Ids the notification is about (campaignId, accountId, ...), for links.';
comment on column public.notifications.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- Indexes -----------------------------------------------------------------------------------------

create index notifications_user_id_created_at_idx on public.notifications (user_id, created_at desc);
create index notifications_user_id_unread_idx on public.notifications (user_id) where (not read);
create index notifications_workspace_id_created_at_idx on public.notifications (workspace_id, created_at desc);
create index notifications_workspace_id_unread_idx on public.notifications (workspace_id) where (not read);

-- Triggers ----------------------------------------------------------------------------------------

create or replace function internal.stamp_notification_read()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.read and not old.read then
    new.read_at := coalesce(new.read_at, now());
  elsif not new.read then
    new.read_at := null;
  end if;
  return new;
end
$$;
comment on function internal.stamp_notification_read() is
  'BEFORE UPDATE on notifications: read_at follows read.';

create trigger notifications_fill_workspace_id before insert on public.notifications for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_creator();

create trigger notifications_stamp_read before update of read, read_at on public.notifications for each row execute function internal.stamp_notification_read();

-- Helper functions --------------------------------------------------------------------------------

create or replace function internal.notify(p_workspace_id uuid, p_user_id uuid, p_type text, p_title text, p_message text, p_metadata jsonb)
returns uuid
language sql
security definer
set search_path = ''
as $$
  insert into public.notifications (workspace_id, user_id, type, title, message, metadata)
  values (p_workspace_id, p_user_id, p_type, p_title, coalesce(p_message, ''), coalesce(p_metadata, '{}'::jsonb))
  returning id
$$;
comment on function internal.notify(uuid, uuid, text, text, text, jsonb) is
  'Adds a notification to the workspace of the row it is about (used by triggers and the scheduler); p_user_id is that row''s creator.';

create or replace function internal.is_billing_notification(p_type text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_type like 'subscription\_%' or p_type like 'payment\_%'
$$;
comment on function internal.is_billing_notification(text) is
  'Whether a notification is about the workspace''s plan or payments (the Stripe webhook''s subscription_* and payment_*): like the billing rows, only the owner sees those.';

-- Row-level security ------------------------------------------------------------------------------

alter table public.notifications enable row level security;

create policy "The runner notifies customers" on public.notifications
  for insert
  to reachflow_runner
  with check (true);

create policy "Agents can read the workspace's reply notifications" on public.notifications
  for select
  to authenticated
  using (((workspace_id = ( select internal.active_workspace_with_role('{agent}'::public.workspace_role[]) as active_workspace_with_role)) and (type = 'lead_replied'::text)));

create policy "Members can read the workspace's notifications" on public.notifications
  for select
  to authenticated
  using (((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) as active_workspace_with_role)) and (not internal.is_billing_notification(type))));

create policy "Members who edit can delete the workspace's notifications" on public.notifications
  for delete
  to authenticated
  using (((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)) and (not internal.is_billing_notification(type))));

create policy "Members who edit can mark the workspace's notifications read" on public.notifications
  for update
  to authenticated
  using (((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)) and (not internal.is_billing_notification(type))))
  with check (((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)) and (not internal.is_billing_notification(type))));

create policy "Owners can delete the workspace's billing notifications" on public.notifications
  for delete
  to authenticated
  using (((workspace_id = ( select internal.active_workspace_with_role('{owner}'::public.workspace_role[]) as active_workspace_with_role)) and internal.is_billing_notification(type)));

create policy "Owners can mark the workspace's billing notifications read" on public.notifications
  for update
  to authenticated
  using (((workspace_id = ( select internal.active_workspace_with_role('{owner}'::public.workspace_role[]) as active_workspace_with_role)) and internal.is_billing_notification(type)))
  with check (((workspace_id = ( select internal.active_workspace_with_role('{owner}'::public.workspace_role[]) as active_workspace_with_role)) and internal.is_billing_notification(type)));

create policy "Owners can read the workspace's billing notifications" on public.notifications
  for select
  to authenticated
  using (((workspace_id = ( select internal.active_workspace_with_role('{owner}'::public.workspace_role[]) as active_workspace_with_role)) and internal.is_billing_notification(type)));

-- Grants ------------------------------------------------------------------------------------------

revoke all on public.notifications from anon;
revoke insert, update, truncate, references, trigger on public.notifications from authenticated;
grant insert on public.notifications to reachflow_runner;
grant update (read, read_at) on public.notifications to authenticated;

revoke execute on function internal.notify(uuid, uuid, text, text, text, jsonb) from public;
revoke execute on function internal.is_billing_notification(text) from public;
revoke execute on function internal.stamp_notification_read() from public;
grant execute on function internal.is_billing_notification(text) to authenticated;
