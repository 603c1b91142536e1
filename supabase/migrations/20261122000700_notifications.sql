-- In-app notifications (the bell): the system writes them, customers read them, mark them read and
-- delete them. Types with their own icon: campaign_completed, campaign_failed, account_flagged,
-- warmup_phase_completed; any other lowercase type gets the generic icon.

-- Tables ---------------------------------------------------------------------------------------

create table public.notifications (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  type text not null check (type ~ '^[a-z][a-z0-9_]{1,50}$'),
  title text not null check (char_length(title) between 1 and 200),
  message text not null default '' check (char_length(message) <= 2000),
  read boolean not null default false,
  read_at timestamptz,
  metadata jsonb not null default '{}'::jsonb check (jsonb_typeof(metadata) = 'object'),
  created_at timestamptz not null default now()
);

create index notifications_user_id_created_at_idx on public.notifications (user_id, created_at desc);
create index notifications_user_id_unread_idx on public.notifications (user_id) where not read;

comment on table public.notifications is 'Bell notifications per customer, newest first. Written by the system; the customer marks them read.';
comment on column public.notifications.type is
  'campaign_completed, campaign_failed, account_flagged, warmup_phase_completed, scraping_completed, ...';
comment on column public.notifications.metadata is 'Ids the notification is about (campaignId, accountId, ...), for links.';

-- Triggers -------------------------------------------------------------------------------------

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
comment on function internal.stamp_notification_read() is 'BEFORE UPDATE on notifications: read_at follows read.';

create trigger notifications_stamp_read
  before update of read, read_at on public.notifications
  for each row execute function internal.stamp_notification_read();

create or replace function internal.notify(p_user_id uuid, p_type text, p_title text, p_message text, p_metadata jsonb)
returns uuid
language sql
security definer
set search_path = ''
as $$
  insert into public.notifications (user_id, type, title, message, metadata)
  values (p_user_id, p_type, p_title, coalesce(p_message, ''), coalesce(p_metadata, '{}'::jsonb))
  returning id
$$;
comment on function internal.notify(uuid, text, text, text, jsonb) is 'Adds a notification for a customer (used by triggers and the scheduler).';

-- Policies -------------------------------------------------------------------------------------

alter table public.notifications enable row level security;

create policy "Users can read their own notifications"
  on public.notifications for select to authenticated
  using (user_id = (select auth.uid()));
create policy "Users can mark their own notifications read"
  on public.notifications for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
create policy "Users can delete their own notifications"
  on public.notifications for delete to authenticated
  using (user_id = (select auth.uid()));

-- Grants ---------------------------------------------------------------------------------------

revoke execute on all functions in schema internal from public;
revoke all on public.notifications from anon, authenticated;
grant select, delete on public.notifications to authenticated;
grant update (read, read_at) on public.notifications to authenticated;
grant all on public.notifications to service_role;
