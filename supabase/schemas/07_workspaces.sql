-- Workspaces: what owns a customer's rows, its members and their roles, each person's active
-- workspace, and the helpers every policy asks (internal.has_role_on_workspace).

-- Schemas and types -------------------------------------------------------------------------------

create type public.workspace_role as enum ('owner', 'admin', 'editor', 'agent', 'viewer');
comment on type public.workspace_role is
  'owner: billing, deleting the workspace, ownership; admin: members and everything else; editor: accounts, scraping, campaigns, automations, inbox; agent: the inbox only; viewer: read-only dashboards and analytics.';

-- Functions the tables' checks and defaults call --------------------------------------------------

create or replace function internal.active_workspace_id()
returns uuid
language sql
stable security definer
set search_path = ''
as $$
  select internal.active_workspace_of(auth.uid())
$$;
comment on function internal.active_workspace_id() is
  'The caller''s active workspace (internal.active_workspace_of). Policies call it once per statement as (select internal.active_workspace_id()).';

-- Tables ------------------------------------------------------------------------------------------

create table public.workspaces (
  id uuid not null default gen_random_uuid(),
  name text not null,
  created_by uuid,
  created_at timestamp with time zone not null default now(),
  updated_at timestamp with time zone not null default now(),
  constraint workspaces_pkey primary key (id),
  constraint workspaces_name_check check (((char_length(btrim(name)) >= 1) and (char_length(name) <= 60))),
  constraint workspaces_created_by_fkey foreign key (created_by) references auth.users(id) on delete set null
);
comment on table public.workspaces is
  'What owns a customer''s accounts, leads, campaigns, inbox and plan. A person''s personal workspace has their user id as its id.';

create table public.workspace_members (
  workspace_id uuid not null,
  user_id uuid not null,
  role public.workspace_role not null,
  created_at timestamp with time zone not null default now(),
  constraint workspace_members_pkey primary key (workspace_id, user_id),
  constraint workspace_members_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint workspace_members_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.workspace_members is
  'Who belongs to which workspace, with one role each. Policies read it on every request, so removing a member cuts their access at once.';

-- Indexes -----------------------------------------------------------------------------------------

create index workspace_members_user_id_idx on public.workspace_members (user_id);

-- Triggers ----------------------------------------------------------------------------------------

create or replace function internal.fill_workspace_id_from_account()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.workspace_id := coalesce(
    (select x.workspace_id from public.social_accounts x where x.id = new.account_id),
    internal.workspace_for_creator(new.user_id)
  );
  return new;
end
$$;
comment on function internal.fill_workspace_id_from_account() is
  'BEFORE INSERT when workspace_id is not given: the account''s workspace, else the creator''s active one.';

create or replace function internal.fill_workspace_id_from_automation()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.workspace_id := coalesce(
    (select x.workspace_id from public.instagram_automations x where x.id = new.automation_id),
    internal.workspace_for_creator(new.user_id)
  );
  return new;
end
$$;
comment on function internal.fill_workspace_id_from_automation() is
  'BEFORE INSERT when workspace_id is not given: the automation''s workspace, else the creator''s active one.';

create or replace function internal.fill_workspace_id_from_automation_run()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.workspace_id := coalesce(
    (select x.workspace_id from public.instagram_automation_runs x where x.id = new.run_id),
    internal.workspace_for_creator(new.user_id)
  );
  return new;
end
$$;
comment on function internal.fill_workspace_id_from_automation_run() is
  'BEFORE INSERT when workspace_id is not given: the automation run''s workspace, else the creator''s active one.';

create or replace function internal.fill_workspace_id_from_campaign()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.workspace_id := coalesce(
    (select x.workspace_id from public.campaigns x where x.id = new.campaign_id),
    internal.workspace_for_creator(new.user_id)
  );
  return new;
end
$$;
comment on function internal.fill_workspace_id_from_campaign() is
  'BEFORE INSERT when workspace_id is not given: the campaign''s workspace, else the creator''s active one.';

create or replace function internal.fill_workspace_id_from_campaign_account()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.workspace_id := coalesce(
    (select x.workspace_id from public.campaigns x where x.id = new.campaign_id),
    (select x.workspace_id from public.social_accounts x where x.id = new.account_id),
    internal.workspace_for_creator(new.user_id)
  );
  return new;
end
$$;
comment on function internal.fill_workspace_id_from_campaign_account() is
  'BEFORE INSERT when workspace_id is not given: the campaign''s, else the account''s workspace, else the creator''s active one.';

create or replace function internal.fill_workspace_id_from_creator()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.workspace_id := coalesce(
    internal.workspace_for_creator(new.user_id)
  );
  return new;
end
$$;
comment on function internal.fill_workspace_id_from_creator() is
  'BEFORE INSERT when workspace_id is not given: the creator''s active workspace.';

create or replace function internal.fill_workspace_id_from_lead_list()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.workspace_id := coalesce(
    (select x.workspace_id from public.lead_lists x where x.id = new.lead_list_id),
    internal.workspace_for_creator(new.user_id)
  );
  return new;
end
$$;
comment on function internal.fill_workspace_id_from_lead_list() is
  'BEFORE INSERT when workspace_id is not given: the lead list''s workspace, else the creator''s active one.';

create or replace function internal.fill_workspace_id_from_scraping_campaign()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.workspace_id := coalesce(
    (select x.workspace_id from public.scraping_campaigns x where x.id = new.scraping_campaign_id),
    internal.workspace_for_creator(new.user_id)
  );
  return new;
end
$$;
comment on function internal.fill_workspace_id_from_scraping_campaign() is
  'BEFORE INSERT when workspace_id is not given: the scraping campaign''s workspace, else the creator''s active one.';

create or replace function internal.fill_workspace_id_from_subscription()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.workspace_id := coalesce(
    (select x.workspace_id from public.subscriptions x where x.id = new.subscription_id),
    internal.workspace_for_creator(new.user_id)
  );
  return new;
end
$$;
comment on function internal.fill_workspace_id_from_subscription() is
  'BEFORE INSERT when workspace_id is not given: the subscription''s workspace, else the creator''s active one.';

create or replace function internal.fill_workspace_id_from_thread()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.workspace_id := coalesce(
    (select x.workspace_id from public.inbox_threads x where x.id = new.thread_id),
    internal.workspace_for_creator(new.user_id)
  );
  return new;
end
$$;
comment on function internal.fill_workspace_id_from_thread() is
  'BEFORE INSERT when workspace_id is not given: the thread''s workspace, else the creator''s active one.';

create trigger workspaces_set_updated_at before update on public.workspaces for each row execute function internal.set_updated_at();

-- Helper functions --------------------------------------------------------------------------------

create or replace function internal.active_workspace_of(p_user uuid)
returns uuid
language sql
stable security definer
set search_path = ''
as $$
  select coalesce(
    (select p.active_workspace_id
       from public.user_profiles p
       join public.workspace_members m on m.workspace_id = p.active_workspace_id and m.user_id = p.id
      where p.id = p_user),
    (select m.workspace_id
       from public.workspace_members m
      where m.user_id = p_user
      order by (m.workspace_id = p_user) desc, m.created_at, m.workspace_id
      limit 1)
  )
$$;
comment on function internal.active_workspace_of(uuid) is
  'The workspace a person works in: the one they switched to while they are still a member, else their personal one, else the first they joined; null when they belong to none.';

create or replace function internal.active_workspace_with_role(p_roles public.workspace_role[])
returns uuid
language sql
stable security definer
set search_path = ''
as $$
  select m.workspace_id
    from public.workspace_members m
   where m.workspace_id = internal.active_workspace_of(auth.uid())
     and m.user_id = auth.uid()
     and m.role = any (p_roles)
$$;
comment on function internal.active_workspace_with_role(public.workspace_role[]) is
  'The one rule every tenant policy asks: the caller''s active workspace when their role there is one of p_roles, else null (no row matches). Policies call it once per statement: workspace_id = (select internal.active_workspace_with_role(...)). Membership is read on every request, so a removed member loses access at once.';

create or replace function internal.has_role_on_workspace(p_workspace_id uuid, p_roles public.workspace_role[] default null::public.workspace_role[])
returns boolean
language sql
stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.workspace_members m
     where m.workspace_id = p_workspace_id
       and m.user_id = auth.uid()
       and (p_roles is null or m.role = any (p_roles))
  )
$$;
comment on function internal.has_role_on_workspace(uuid, public.workspace_role[]) is
  'True when the caller is a member of the workspace (with one of the roles, when given). The one rule policies and functions ask.';

create or replace function internal.require_active_role(p_roles public.workspace_role[])
returns uuid
language plpgsql
stable security definer
set search_path = ''
as $$
declare
  workspace uuid := internal.active_workspace_of(auth.uid());
  caller_role public.workspace_role := internal.workspace_role(workspace);
begin
  if caller_role is null then
    raise exception 'You are not a member of this workspace.' using errcode = '42501';
  end if;
  if not caller_role = any (p_roles) then
    raise exception 'Your role in this workspace does not allow this.' using errcode = '42501';
  end if;
  return workspace;
end
$$;
comment on function internal.require_active_role(public.workspace_role[]) is
  'What a writing RPC asks first: the caller''s active workspace when their role there is one of p_roles; 42501 with the product''s words otherwise (not a member / role too low).';

create or replace function internal.workspace_for_creator(p_user uuid)
returns uuid
language sql
stable security definer
set search_path = ''
as $$
  select internal.active_workspace_of(p_user)
$$;
comment on function internal.workspace_for_creator(uuid) is
  'A top-level row inserted without a workspace belongs to its creator''s active workspace.';

create or replace function internal.workspace_role(p_workspace_id uuid)
returns public.workspace_role
language sql
stable security definer
set search_path = ''
as $$
  select m.role from public.workspace_members m
   where m.workspace_id = p_workspace_id and m.user_id = auth.uid()
$$;
comment on function internal.workspace_role(uuid) is
  'The caller''s role in a workspace; null when not a member.';

-- Row-level security ------------------------------------------------------------------------------

alter table public.workspaces enable row level security;

create policy "Members can read their workspaces" on public.workspaces
  for select
  to authenticated
  using (internal.has_role_on_workspace(id));

create policy "The runner reads workspaces" on public.workspaces
  for select
  to reachflow_runner
  using (true);

alter table public.workspace_members enable row level security;

create policy "Members can read their workspaces' members" on public.workspace_members
  for select
  to authenticated
  using (internal.has_role_on_workspace(workspace_id));

create policy "The runner reads workspace members" on public.workspace_members
  for select
  to reachflow_runner
  using (true);

-- Grants ------------------------------------------------------------------------------------------

revoke all on public.workspaces from anon;
revoke insert, update, delete, truncate, references, trigger on public.workspaces from authenticated;
grant select on public.workspaces to reachflow_runner;

revoke all on public.workspace_members from anon;
revoke insert, update, delete, truncate, references, trigger on public.workspace_members from authenticated;
grant select on public.workspace_members to reachflow_runner;

revoke execute on function internal.active_workspace_id() from public;
grant execute on function internal.active_workspace_id() to authenticated, reachflow_runner, service_role;

revoke execute on function internal.active_workspace_of(uuid) from public;
grant execute on function internal.active_workspace_of(uuid) to reachflow_runner, service_role;

revoke execute on function internal.active_workspace_with_role(public.workspace_role[]) from public;
grant execute on function internal.active_workspace_with_role(public.workspace_role[]) to authenticated, service_role;

revoke execute on function internal.fill_workspace_id_from_account() from public;
revoke execute on function internal.fill_workspace_id_from_automation() from public;
revoke execute on function internal.fill_workspace_id_from_automation_run() from public;
revoke execute on function internal.fill_workspace_id_from_campaign() from public;
revoke execute on function internal.fill_workspace_id_from_campaign_account() from public;
revoke execute on function internal.fill_workspace_id_from_creator() from public;
revoke execute on function internal.fill_workspace_id_from_lead_list() from public;
revoke execute on function internal.fill_workspace_id_from_scraping_campaign() from public;
revoke execute on function internal.fill_workspace_id_from_subscription() from public;
revoke execute on function internal.fill_workspace_id_from_thread() from public;

revoke execute on function internal.has_role_on_workspace(uuid, public.workspace_role[]) from public;
grant execute on function internal.has_role_on_workspace(uuid, public.workspace_role[]) to authenticated, service_role;

revoke execute on function internal.require_active_role(public.workspace_role[]) from public;
grant execute on function internal.require_active_role(public.workspace_role[]) to authenticated, service_role;

revoke execute on function internal.workspace_for_creator(uuid) from public;

revoke execute on function internal.workspace_role(uuid) from public;
grant execute on function internal.workspace_role(uuid) to authenticated, service_role;

-- RPCs --------------------------------------------------------------------------------------------

create or replace function public.create_workspace(p_name text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  clean text := btrim(coalesce(p_name, ''));
  created uuid;
begin
  if auth.uid() is null then
    raise exception 'Sign in to create a workspace.' using errcode = '42501';
  end if;
  if clean = '' then
    raise exception 'Workspace name is required' using errcode = '22023';
  end if;
  if char_length(clean) > 60 then
    raise exception 'Workspace name must be 60 characters or less' using errcode = '22023';
  end if;
  insert into public.workspaces (name, created_by) values (clean, auth.uid()) returning id into created;
  insert into public.workspace_members (workspace_id, user_id, role) values (created, auth.uid(), 'owner');
  update public.user_profiles set active_workspace_id = created where id = auth.uid();
  return created;
end
$$;
comment on function public.create_workspace(text) is
  'Creates a workspace (name 1-60 characters) owned by the caller and switches them to it.';
revoke execute on function public.create_workspace(text) from public, anon;

create or replace function public.my_workspaces()
returns table(id uuid, name text, role public.workspace_role, is_active boolean, member_count integer)
language sql
stable security definer
set search_path = ''
as $$
  select w.id, w.name, m.role, w.id = internal.active_workspace_id(),
         (select count(*)::integer from public.workspace_members x where x.workspace_id = w.id)
    from public.workspace_members m
    join public.workspaces w on w.id = m.workspace_id
   where m.user_id = auth.uid()
   order by lower(w.name), w.id
$$;
comment on function public.my_workspaces() is
  'The caller''s workspaces with their role, which one is active and how many members each has, by name.';
revoke execute on function public.my_workspaces() from public, anon;

create or replace function public.set_active_workspace(p_workspace_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not internal.has_role_on_workspace(p_workspace_id) then
    raise exception 'You are not a member of this workspace.' using errcode = '42501';
  end if;
  update public.user_profiles set active_workspace_id = p_workspace_id where id = auth.uid();
end
$$;
comment on function public.set_active_workspace(uuid) is
  'Switches the caller to a workspace they belong to (42501 otherwise); remembered on their profile.';
revoke execute on function public.set_active_workspace(uuid) from public, anon;
