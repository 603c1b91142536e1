-- Workspaces: what owns a customer's rows, its members and their roles, each person's active
-- workspace, and the helpers every policy asks (internal.has_role_on_workspace).

-- Schemas and types -------------------------------------------------------------------------------

create type public.workspace_role as enum ('owner', 'admin', 'editor', 'agent', 'viewer');
comment on type public.workspace_role is
  'owner: billing, deleting the workspace, ownership; admin: members and everything else; editor: accounts, scraping, campaigns, automations, inbox; agent: the inbox only; viewer: read-only dashboards and analytics.';

-- Functions the tables' checks and defaults call --------------------------------------------------

create or replace function internal.active_workspace_id()
returns uuid
language plpgsql
stable security definer
set search_path = ''
as $$
begin
  return internal.active_workspace_of(auth.uid());
end
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
  stripe_customer_id text,
  subscription_status text not null default 'none'::text,
  subscription_plan text not null default 'free'::text,
  constraint workspaces_pkey primary key (id),
  constraint workspaces_name_check check (((char_length(btrim(name)) >= 1) and (char_length(name) <= 60))),
  constraint workspaces_subscription_plan_check check ((subscription_plan = any (array['free'::text, 'starter'::text, 'growth'::text, 'enterprise'::text, 'bundle'::text]))),
  constraint workspaces_subscription_status_check check ((subscription_status = any (array['none'::text, 'active'::text, 'trialing'::text, 'past_due'::text, 'canceled'::text, 'incomplete'::text]))),
  constraint workspaces_created_by_fkey foreign key (created_by) references auth.users(id) on delete set null
);
comment on table public.workspaces is
  'What owns a customer''s accounts, leads, campaigns, inbox and plan. A person''s personal workspace has their user id as its id.';
comment on column public.workspaces.stripe_customer_id is
  'The workspace''s Stripe customer (cus_...): every checkout, portal and invoice of the workspace uses it. Set from its first subscription.';
comment on column public.workspaces.subscription_status is
  'Mirror of the subscription that decides the workspace''s plan (internal.refresh_workspace_plan); none without one.';
comment on column public.workspaces.subscription_plan is
  'The plan in use: the deciding subscription''s plan while active or trialing, else free.';

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

create table public.workspace_invitations (
  id uuid not null default gen_random_uuid(),
  workspace_id uuid not null,
  email text not null,
  role public.workspace_role not null,
  invited_by uuid,
  token_hash text not null,
  created_at timestamp with time zone not null default now(),
  expires_at timestamp with time zone not null,
  last_sent_at timestamp with time zone not null default now(),
  accepted_at timestamp with time zone,
  accepted_by uuid,
  revoked_at timestamp with time zone,
  constraint workspace_invitations_pkey primary key (id),
  constraint workspace_invitations_token_hash_key unique (token_hash),
  constraint workspace_invitations_email_check check (((email = lower(btrim(email))) and (char_length(email) <= 254) and (email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$'::text))),
  constraint workspace_invitations_role_check check ((role <> 'owner'::public.workspace_role)),
  constraint workspace_invitations_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade,
  constraint workspace_invitations_invited_by_fkey foreign key (invited_by) references auth.users(id) on delete set null,
  constraint workspace_invitations_accepted_by_fkey foreign key (accepted_by) references auth.users(id) on delete set null
);
comment on table public.workspace_invitations is
  'Invitations by e-mail to join a workspace with a role (never owner). One use, 7 days, revocable. Only a SHA-256 hash of the link''s token is kept, so a leaked table gives no working link. Written only by the member RPCs.';
comment on column public.workspace_invitations.token_hash is
  'Hex SHA-256 of the token in the invitation link; the token itself is mailed once and never stored.';

-- Indexes -----------------------------------------------------------------------------------------

create unique index workspaces_stripe_customer_id_key on public.workspaces (stripe_customer_id);

create index workspace_members_user_id_idx on public.workspace_members (user_id);
create index workspace_invitations_workspace_id_idx on public.workspace_invitations (workspace_id);

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

create or replace function internal.hand_over_rows_of_deleted_login()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  tenant_table regclass;
begin
  -- Workspaces only they own go with them (their personal one among them), with all their rows.
  delete from public.workspaces w
   where exists (select 1 from public.workspace_members m
                  where m.workspace_id = w.id and m.user_id = old.id and m.role = 'owner')
     and not exists (select 1 from public.workspace_members m
                      where m.workspace_id = w.id and m.user_id <> old.id and m.role = 'owner');
  -- What they created elsewhere stays with the workspace: its first owner becomes the creator, so
  -- the user_id foreign keys' cascade finds nothing of it to delete.
  for tenant_table in
    select c.oid::regclass
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
     where c.relkind = 'r' and n.nspname in ('public', 'internal')
       and exists (select 1 from pg_catalog.pg_attribute a where a.attrelid = c.oid and a.attname = 'workspace_id' and not a.attisdropped)
       and exists (select 1 from pg_catalog.pg_attribute a where a.attrelid = c.oid and a.attname = 'user_id' and not a.attisdropped)
       and c.relname <> 'workspace_members'
     order by c.oid
  loop
    execute pg_catalog.format(
      'update %s x set user_id = o.owner
         from (select m.workspace_id, (array_agg(m.user_id order by m.created_at, m.user_id))[1] as owner
                 from public.workspace_members m
                where m.role = ''owner'' and m.user_id <> $1
                group by m.workspace_id) o
        where x.user_id = $1 and x.workspace_id = o.workspace_id', tenant_table)
    using old.id;
  end loop;
  return old;
end
$$;
comment on function internal.hand_over_rows_of_deleted_login() is
  'BEFORE DELETE on auth.users: deletes the workspaces the person is the only owner of, and hands the rows they created in the others to each workspace''s first owner, so deleting a login never deletes a workspace''s rows.';

create trigger on_auth_user_deleted_hand_over_rows before delete on auth.users for each row execute function internal.hand_over_rows_of_deleted_login();

create trigger workspaces_set_updated_at before update on public.workspaces for each row execute function internal.set_updated_at();

create or replace function internal.forget_left_workspace()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- A profile that still named a workspace its owner no longer belongs to would keep that id
  -- readable to them; whoever removes or leaves, the remembered workspace goes with the membership.
  update public.user_profiles
     set active_workspace_id = null
   where id = old.user_id and active_workspace_id = old.workspace_id;
  return old;
end
$$;
comment on function internal.forget_left_workspace() is
  'AFTER DELETE on workspace_members: clears the person''s remembered workspace when it was the one they left or were removed from (they fall back to their own).';

create trigger workspace_members_forget_left_workspace after delete on public.workspace_members for each row execute function internal.forget_left_workspace();

-- Helper functions --------------------------------------------------------------------------------

create or replace function internal.active_workspace_of(p_user uuid)
returns uuid
language plpgsql
stable security definer
set search_path = ''
as $$
declare
  active uuid;
begin
  -- plpgsql, not sql: every policy asks these helpers once per statement, and a security-definer
  -- SQL function is never inlined and is parsed and planned on every call, while plpgsql keeps
  -- its plans for the session. Two key lookups rather than one sorted query: the remembered
  -- workspace is nearly always the answer. Nothing is kept between calls, so a removed member
  -- loses the workspace on their next statement.
  select m.workspace_id into active
    from public.user_profiles p
    join public.workspace_members m on m.workspace_id = p.active_workspace_id and m.user_id = p.id
   where p.id = p_user;
  if not found then
    select m.workspace_id into active
      from public.workspace_members m
     where m.user_id = p_user
     order by m.workspace_id = p_user desc, m.created_at, m.workspace_id
     limit 1;
  end if;
  return active;
end
$$;
comment on function internal.active_workspace_of(uuid) is
  'The workspace a person works in: the one they switched to while they are still a member, else their personal one, else the first they joined; null when they belong to none.';

create or replace function internal.active_workspace_with_role(p_roles public.workspace_role[])
returns uuid
language plpgsql
stable security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  active uuid;
  active_role public.workspace_role;
begin
  -- internal.active_workspace_of's choice with the role held there, in its own lookups rather
  -- than a call to it (see there why plpgsql).
  select m.workspace_id, m.role into active, active_role
    from public.user_profiles p
    join public.workspace_members m on m.workspace_id = p.active_workspace_id and m.user_id = p.id
   where p.id = caller;
  if not found then
    select m.workspace_id, m.role into active, active_role
      from public.workspace_members m
     where m.user_id = caller
     order by m.workspace_id = caller desc, m.created_at, m.workspace_id
     limit 1;
  end if;
  return case when active_role = any (p_roles) then active end;
end
$$;
comment on function internal.active_workspace_with_role(public.workspace_role[]) is
  'The one rule every tenant policy asks: the caller''s active workspace when their role there is one of p_roles, else null (no row matches). Policies call it once per statement: workspace_id = (select internal.active_workspace_with_role(...)). Membership is read on every request, so a removed member loses access at once.';

create or replace function internal.has_role_on_workspace(p_workspace_id uuid, p_roles public.workspace_role[] default null::public.workspace_role[])
returns boolean
language plpgsql
stable security definer
set search_path = ''
as $$
begin
  -- plpgsql for the cached plan (see internal.active_workspace_of).
  return exists (
    select 1 from public.workspace_members m
     where m.workspace_id = p_workspace_id
       and m.user_id = (select auth.uid())
       and (p_roles is null or m.role = any (p_roles)));
end
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
begin
  -- The members RPCs' gate decides for the active workspace too: one place says who is refused and with which words.
  perform internal.require_member_role(workspace, p_roles);
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
language plpgsql
stable security definer
set search_path = ''
as $$
begin
  -- plpgsql for the cached plan (see internal.active_workspace_of).
  return (
    select m.role from public.workspace_members m
     where m.workspace_id = p_workspace_id and m.user_id = (select auth.uid()));
end
$$;
comment on function internal.workspace_role(uuid) is
  'The caller''s role in a workspace; null when not a member.';

create or replace function internal.require_member_role(p_workspace_id uuid, p_roles public.workspace_role[])
returns public.workspace_role
language plpgsql
stable security definer
set search_path = ''
as $$
declare
  mine public.workspace_role := internal.workspace_role(p_workspace_id);
begin
  if mine is null then
    raise exception 'You are not a member of this workspace.' using errcode = '42501';
  end if;
  if not (mine = any (p_roles)) then
    raise exception 'Your role in this workspace does not allow this.' using errcode = '42501';
  end if;
  return mine;
end
$$;
comment on function internal.require_member_role(uuid, public.workspace_role[]) is
  'The member RPCs'' gate: the caller''s role in the workspace, or 42501 with the spec''s words when they are not a member or their role is not one of p_roles.';

create or replace function internal.refuse_losing_last_owner(p_workspace_id uuid, p_user_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- The workspace row is locked first, so two owners demoting each other at once are decided one after the other.
  perform 1 from public.workspaces w where w.id = p_workspace_id for update;
  if (select m.role from public.workspace_members m where m.workspace_id = p_workspace_id and m.user_id = p_user_id) = 'owner'
     and (select count(*) from public.workspace_members m where m.workspace_id = p_workspace_id and m.role = 'owner') <= 1 then
    raise exception 'A workspace needs an owner. Make someone else the owner first.' using errcode = '42501';
  end if;
end
$$;
comment on function internal.refuse_losing_last_owner(uuid, uuid) is
  'Raises the last-owner error when p_user_id is the workspace''s only owner: called before they leave, are removed or are demoted.';

create or replace function internal.invitation_token_hash(p_token text)
returns text
language sql
immutable
set search_path = ''
as $$
  select encode(pg_catalog.sha256(convert_to(coalesce(p_token, ''), 'UTF8')), 'hex')
$$;
comment on function internal.invitation_token_hash(text) is
  'The stored form of an invitation token: hex SHA-256.';

create or replace function internal.issue_invitation_token(p_invitation_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  token text := encode(extensions.gen_random_bytes(32), 'hex');
begin
  update public.workspace_invitations
     set token_hash = internal.invitation_token_hash(token),
         expires_at = internal.now() + interval '7 days',
         last_sent_at = internal.now()
   where id = p_invitation_id;
  return token;
end
$$;
comment on function internal.issue_invitation_token(uuid) is
  'Gives an invitation a new random token (returned once, stored hashed) valid for 7 days from now; the previous link stops working.';

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

alter table public.workspace_invitations enable row level security;

create policy "Owners and admins can read their workspace's invitations" on public.workspace_invitations
  for select
  to authenticated
  using (internal.has_role_on_workspace(workspace_id, '{owner,admin}'::public.workspace_role[]));

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

revoke execute on function internal.hand_over_rows_of_deleted_login() from public;
revoke execute on function internal.forget_left_workspace() from public;

revoke execute on function internal.has_role_on_workspace(uuid, public.workspace_role[]) from public;
grant execute on function internal.has_role_on_workspace(uuid, public.workspace_role[]) to authenticated, service_role;

revoke execute on function internal.require_active_role(public.workspace_role[]) from public;
grant execute on function internal.require_active_role(public.workspace_role[]) to authenticated, service_role;

revoke execute on function internal.workspace_for_creator(uuid) from public;

revoke execute on function internal.workspace_role(uuid) from public;
grant execute on function internal.workspace_role(uuid) to authenticated, service_role;

revoke all on public.workspace_invitations from anon;
revoke insert, update, delete, truncate, references, trigger on public.workspace_invitations from authenticated;

revoke execute on function internal.require_member_role(uuid, public.workspace_role[]) from public;
revoke execute on function internal.refuse_losing_last_owner(uuid, uuid) from public;
revoke execute on function internal.invitation_token_hash(text) from public;
revoke execute on function internal.issue_invitation_token(uuid) from public;

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

create or replace function public.rename_workspace(p_workspace_id uuid, p_name text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  clean text := btrim(coalesce(p_name, ''));
begin
  perform internal.require_member_role(p_workspace_id, '{owner,admin}');
  if clean = '' then
    raise exception 'Workspace name is required' using errcode = '22023';
  end if;
  if char_length(clean) > 60 then
    raise exception 'Workspace name must be 60 characters or less' using errcode = '22023';
  end if;
  update public.workspaces set name = clean where id = p_workspace_id;
end
$$;
comment on function public.rename_workspace(uuid, text) is
  'Renames a workspace (owner or admin; 1-60 characters, trimmed).';
revoke execute on function public.rename_workspace(uuid, text) from public, anon;

create or replace function public.delete_workspace(p_workspace_id uuid, p_confirm_name text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform internal.require_member_role(p_workspace_id, '{owner}');
  if p_confirm_name is distinct from (select w.name from public.workspaces w where w.id = p_workspace_id) then
    raise exception 'Type the workspace name exactly to delete it.' using errcode = '22023';
  end if;
  if (select count(*) from public.workspace_members m where m.user_id = auth.uid()) <= 1 then
    raise exception 'You cannot delete the only workspace you belong to.' using errcode = '22023';
  end if;
  -- Everything the workspace owns goes with it (on delete cascade); whoever had it active falls back
  -- to another of their workspaces on their next request (internal.active_workspace_of).
  delete from public.workspaces where id = p_workspace_id;
end
$$;
comment on function public.delete_workspace(uuid, text) is
  'Deletes a workspace and everything it owns (owner only; the typed name must match; not the caller''s only workspace).';
revoke execute on function public.delete_workspace(uuid, text) from public, anon;

create or replace function public.invite_member(p_workspace_id uuid, p_email text, p_role public.workspace_role)
returns table(invitation_id uuid, email text, token text, expires_at timestamp with time zone)
language plpgsql
security definer
set search_path = ''
as $$
declare
  clean text := lower(btrim(coalesce(p_email, '')));
  new_token text := encode(extensions.gen_random_bytes(32), 'hex');
  created uuid;
begin
  perform internal.require_member_role(p_workspace_id, '{owner,admin}');
  if char_length(clean) > 254 or clean !~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$' then
    raise exception 'Enter a valid e-mail address' using errcode = '22023';
  end if;
  if p_role is null or p_role = 'owner' then
    raise exception 'Invite as admin, editor, agent or viewer; make someone the owner after they join.' using errcode = '22023';
  end if;
  if exists (select 1 from public.workspace_members m join auth.users u on u.id = m.user_id
              where m.workspace_id = p_workspace_id and lower(u.email) = clean) then
    raise exception 'This person is already a member of this workspace.' using errcode = '23505';
  end if;
  if exists (select 1 from public.workspace_invitations i
              where i.workspace_id = p_workspace_id and i.email = clean
                and i.accepted_at is null and i.revoked_at is null and i.expires_at > internal.now()) then
    raise exception 'This e-mail address already has a pending invitation. Resend it instead.' using errcode = '23505';
  end if;
  insert into public.workspace_invitations (workspace_id, email, role, invited_by, token_hash, created_at, expires_at, last_sent_at)
  values (p_workspace_id, clean, p_role, auth.uid(), internal.invitation_token_hash(new_token), internal.now(),
          internal.now() + interval '7 days', internal.now())
  returning id into created;
  return query select created, clean, new_token, internal.now() + interval '7 days';
end
$$;
comment on function public.invite_member(uuid, text, public.workspace_role) is
  'Invites an e-mail address with a role other than owner (owner or admin). Returns the link''s token once, for the mail; refuses members and a pending duplicate.';
revoke execute on function public.invite_member(uuid, text, public.workspace_role) from public, anon;

create or replace function public.resend_invitation(p_invitation_id uuid)
returns table(invitation_id uuid, email text, token text, expires_at timestamp with time zone)
language plpgsql
security definer
set search_path = ''
as $$
declare
  found public.workspace_invitations%rowtype;
begin
  select * into found from public.workspace_invitations i where i.id = p_invitation_id;
  perform internal.require_member_role(found.workspace_id, '{owner,admin}');
  if found.accepted_at is not null then
    raise exception 'This invitation was already used.' using errcode = '22023';
  end if;
  if found.revoked_at is not null then
    raise exception 'This invitation was revoked.' using errcode = '22023';
  end if;
  return query
    select found.id, found.email, internal.issue_invitation_token(found.id), internal.now() + interval '7 days';
end
$$;
comment on function public.resend_invitation(uuid) is
  'A pending (or expired) invitation gets a new token and 7 more days; the old link stops working (owner or admin).';
revoke execute on function public.resend_invitation(uuid) from public, anon;

create or replace function public.revoke_invitation(p_invitation_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  found public.workspace_invitations%rowtype;
begin
  select * into found from public.workspace_invitations i where i.id = p_invitation_id;
  perform internal.require_member_role(found.workspace_id, '{owner,admin}');
  if found.accepted_at is not null then
    raise exception 'This invitation was already used.' using errcode = '22023';
  end if;
  update public.workspace_invitations set revoked_at = coalesce(revoked_at, internal.now()) where id = p_invitation_id;
end
$$;
comment on function public.revoke_invitation(uuid) is
  'Revokes a pending invitation so its link no longer works (owner or admin).';
revoke execute on function public.revoke_invitation(uuid) from public, anon;

create or replace function public.accept_invitation(p_token text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  found public.workspace_invitations%rowtype;
  my_email text;
begin
  if auth.uid() is null then
    raise exception 'Sign in to accept the invitation.' using errcode = '42501';
  end if;
  select * into found from public.workspace_invitations i
   where i.token_hash = internal.invitation_token_hash(p_token)
   for update;
  if found.id is null then
    raise exception 'This invitation link is not valid. Ask for a new invitation.' using errcode = '22023';
  end if;
  if found.revoked_at is not null then
    raise exception 'This invitation was revoked.' using errcode = '22023';
  end if;
  if found.accepted_at is not null then
    raise exception 'This invitation was already used.' using errcode = '22023';
  end if;
  if found.expires_at <= internal.now() then
    raise exception 'This invitation has expired. Ask for a new invitation.' using errcode = '22023';
  end if;
  select lower(u.email) into my_email from auth.users u where u.id = auth.uid();
  if my_email is distinct from found.email then
    raise exception 'This invitation was sent to another e-mail address. Sign in with that address to accept it.' using errcode = '42501';
  end if;
  -- Someone who is already a member keeps the role they have; the invitation is used up either way.
  insert into public.workspace_members (workspace_id, user_id, role)
  values (found.workspace_id, auth.uid(), found.role)
  on conflict (workspace_id, user_id) do nothing;
  update public.workspace_invitations set accepted_at = internal.now(), accepted_by = auth.uid() where id = found.id;
  -- Onboarding asks about a customer's own outreach and plan; someone joining a team skips it.
  update public.user_profiles
     set active_workspace_id = found.workspace_id, onboarding_completed = true, post_onboarding = true
   where id = auth.uid();
  return found.workspace_id;
end
$$;
comment on function public.accept_invitation(text) is
  'Joins the invitation''s workspace with its role and switches to it: one use, unexpired, unrevoked, and only for the invited e-mail address.';
revoke execute on function public.accept_invitation(text) from public, anon;

create or replace function public.workspace_member_list(p_workspace_id uuid)
returns table(user_id uuid, full_name text, email text, role public.workspace_role, joined_at timestamp with time zone)
language plpgsql
stable security definer
set search_path = ''
as $$
begin
  perform internal.require_member_role(p_workspace_id, '{owner,admin,editor,agent,viewer}');
  return query
    select m.user_id, p.full_name, u.email::text, m.role, m.created_at
      from public.workspace_members m
      join auth.users u on u.id = m.user_id
      left join public.user_profiles p on p.id = m.user_id
     where m.workspace_id = p_workspace_id
     order by m.role, lower(coalesce(nullif(p.full_name, ''), u.email::text)), m.user_id;
end
$$;
comment on function public.workspace_member_list(uuid) is
  'A workspace''s members with name, e-mail (from auth.users), role and when they joined, by role then name; every role of a member may read it: the Members page, the inbox''s assign control and notes, the activity filters.';
revoke execute on function public.workspace_member_list(uuid) from public, anon;

create or replace function public.change_member_role(p_workspace_id uuid, p_user_id uuid, p_role public.workspace_role)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  mine public.workspace_role := internal.require_member_role(p_workspace_id, '{owner,admin}');
  theirs public.workspace_role;
begin
  select m.role into theirs from public.workspace_members m where m.workspace_id = p_workspace_id and m.user_id = p_user_id;
  if theirs is null then
    raise exception 'This person is not a member of this workspace.' using errcode = '22023';
  end if;
  if p_role is null then
    raise exception 'Choose a role' using errcode = '22023';
  end if;
  if (theirs = 'owner' or p_role = 'owner') and mine <> 'owner' then
    raise exception 'Your role in this workspace does not allow this.' using errcode = '42501';
  end if;
  if p_role <> 'owner' then
    perform internal.refuse_losing_last_owner(p_workspace_id, p_user_id);
  end if;
  update public.workspace_members set role = p_role where workspace_id = p_workspace_id and user_id = p_user_id;
end
$$;
comment on function public.change_member_role(uuid, uuid, public.workspace_role) is
  'Changes a member''s role (owner or admin); only an owner makes or unmakes owners, and the last owner stays one.';
revoke execute on function public.change_member_role(uuid, uuid, public.workspace_role) from public, anon;

create or replace function public.remove_member(p_workspace_id uuid, p_user_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  mine public.workspace_role := internal.require_member_role(p_workspace_id, '{owner,admin}');
  theirs public.workspace_role;
begin
  select m.role into theirs from public.workspace_members m where m.workspace_id = p_workspace_id and m.user_id = p_user_id;
  if theirs is null then
    raise exception 'This person is not a member of this workspace.' using errcode = '22023';
  end if;
  if theirs = 'owner' and mine <> 'owner' then
    raise exception 'Your role in this workspace does not allow this.' using errcode = '42501';
  end if;
  perform internal.refuse_losing_last_owner(p_workspace_id, p_user_id);
  -- Policies read membership on every request, so the removed person's next request is refused.
  delete from public.workspace_members where workspace_id = p_workspace_id and user_id = p_user_id;
end
$$;
comment on function public.remove_member(uuid, uuid) is
  'Removes a member (owner or admin; only an owner removes an owner; never the last owner). Their access ends with their next request.';
revoke execute on function public.remove_member(uuid, uuid) from public, anon;

create or replace function public.leave_workspace(p_workspace_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform internal.require_member_role(p_workspace_id, '{owner,admin,editor,agent,viewer}');
  if (select count(*) from public.workspace_members m where m.user_id = auth.uid()) <= 1 then
    raise exception 'You cannot leave the only workspace you belong to.' using errcode = '22023';
  end if;
  perform internal.refuse_losing_last_owner(p_workspace_id, auth.uid());
  delete from public.workspace_members where workspace_id = p_workspace_id and user_id = auth.uid();
end
$$;
comment on function public.leave_workspace(uuid) is
  'The caller leaves a workspace (never as its last owner, never their only workspace).';
revoke execute on function public.leave_workspace(uuid) from public, anon;

create or replace function public.transfer_ownership(p_workspace_id uuid, p_user_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform internal.require_member_role(p_workspace_id, '{owner}');
  if p_user_id = auth.uid() then
    raise exception 'Choose another member to make the owner.' using errcode = '22023';
  end if;
  if not exists (select 1 from public.workspace_members m where m.workspace_id = p_workspace_id and m.user_id = p_user_id) then
    raise exception 'This person is not a member of this workspace.' using errcode = '22023';
  end if;
  update public.workspace_members set role = 'owner' where workspace_id = p_workspace_id and user_id = p_user_id;
  update public.workspace_members set role = 'admin' where workspace_id = p_workspace_id and user_id = auth.uid();
end
$$;
comment on function public.transfer_ownership(uuid, uuid) is
  'The owner hands the workspace to another member: they become owner, the caller admin (owner only).';
revoke execute on function public.transfer_ownership(uuid, uuid) from public, anon;
