-- Who may be contacted: the contact ledger (one first message per person and platform), the
-- do-not-contact list and the opt-out words that add to it.

-- Tables ------------------------------------------------------------------------------------------

create table public.contact_ledger (
  id uuid not null default gen_random_uuid(),
  user_id uuid not null,
  platform text not null,
  target_username text not null,
  first_contacted_at timestamp with time zone not null default now(),
  campaign_id uuid,
  account_id uuid,
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint contact_ledger_pkey primary key (id),
  constraint contact_ledger_account_id_fkey foreign key (account_id) references public.social_accounts(id) on delete set null,
  constraint contact_ledger_campaign_id_fkey foreign key (campaign_id) references public.campaigns(id) on delete set null,
  constraint contact_ledger_platform_fkey foreign key (platform) references public.platforms(name),
  constraint contact_ledger_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint contact_ledger_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.contact_ledger is
  'Everyone a customer has messaged, per platform, across all accounts and campaigns: a person is contacted once.';
comment on column public.contact_ledger.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

create table public.do_not_contact (
  id uuid not null default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  platform text not null,
  target_username text not null,
  reason text not null default 'manual'::text,
  created_at timestamp with time zone not null default now(),
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint do_not_contact_pkey primary key (id),
  constraint do_not_contact_reason_check check ((char_length(reason) <= 500)),
  constraint do_not_contact_target_username_check check (((char_length(target_username) >= 1) and (char_length(target_username) <= 100))),
  constraint do_not_contact_platform_fkey foreign key (platform) references public.platforms(name),
  constraint do_not_contact_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint do_not_contact_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.do_not_contact is
  'People a customer must never message (added by hand, or by the runner when someone replies stop/unsubscribe).';
comment on column public.do_not_contact.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

create table public.opt_out_settings (
  user_id uuid not null default auth.uid(),
  anywhere text[] not null default '{unsubscribe}'::text[],
  at_start text[] not null default '{stop}'::text[],
  updated_at timestamp with time zone not null default now(),
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint opt_out_settings_pkey primary key (user_id),
  constraint opt_out_settings_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint opt_out_settings_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.opt_out_settings is
  'A customer''s opt-out words; without a row the defaults apply (anywhere: unsubscribe; at the start of a short reply: stop). Read by the runner when it records replies.';
comment on column public.opt_out_settings.anywhere is
  'Words or phrases that opt a person out wherever they appear in a reply (whole words, any case).';
comment on column public.opt_out_settings.at_start is
  'Words or phrases that opt a person out when a reply starts with them and has at most two more words ("stop please").';
comment on column public.opt_out_settings.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- Indexes -----------------------------------------------------------------------------------------

create unique index contact_ledger_user_platform_username_key on public.contact_ledger (user_id, platform, lower(target_username));
create index contact_ledger_workspace_id_idx on public.contact_ledger (workspace_id);

create index do_not_contact_reason_search_idx on public.do_not_contact using gin (reason extensions.gin_trgm_ops);
create index do_not_contact_user_created_idx on public.do_not_contact (user_id, created_at desc);
create unique index do_not_contact_user_platform_username_key on public.do_not_contact (user_id, platform, lower(target_username));
create index do_not_contact_username_search_idx on public.do_not_contact using gin (target_username extensions.gin_trgm_ops);
create index do_not_contact_workspace_id_created_at_idx on public.do_not_contact (workspace_id, created_at desc);

create index opt_out_settings_workspace_id_idx on public.opt_out_settings (workspace_id);

-- Triggers ----------------------------------------------------------------------------------------

create or replace function internal.check_opt_out_words()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  word text;
begin
  -- stored as typed, less case and extra spaces; duplicates dropped, order kept
  new.anywhere := array(select w from (select distinct on (w) w, i
                                          from unnest(new.anywhere) with ordinality u(raw, i)
                                          cross join lateral (select lower(regexp_replace(btrim(u.raw), '\s+', ' ', 'g')) as w) n
                                         order by w, i) d order by i);
  new.at_start := array(select w from (select distinct on (w) w, i
                                          from unnest(new.at_start) with ordinality u(raw, i)
                                          cross join lateral (select lower(regexp_replace(btrim(u.raw), '\s+', ' ', 'g')) as w) n
                                         order by w, i) d order by i);
  if cardinality(new.anywhere) > 20 or cardinality(new.at_start) > 20 then
    raise exception 'Each list holds at most 20 words.' using errcode = '22023';
  end if;
  foreach word in array new.anywhere || new.at_start loop
    if word = '' then
      raise exception 'An opt-out word cannot be empty.' using errcode = '22023';
    elsif char_length(word) > 40 then
      raise exception '"%…" is too long: at most 40 characters.', left(word, 20) using errcode = '22023';
    elsif word !~ '^[[:alnum:]]+([''’-][[:alnum:]]+)*( [[:alnum:]]+([''’-][[:alnum:]]+)*)*$' then
      raise exception '"%" can only hold letters, digits, spaces, '' and -.', word using errcode = '22023';
    end if;
  end loop;
  if cardinality(new.anywhere) + cardinality(new.at_start) = 0 then
    raise exception 'Keep at least one opt-out word: people must always be able to say stop.' using errcode = '22023';
  end if;
  new.updated_at := now();
  return new;
end
$$;
comment on function internal.check_opt_out_words() is
  'BEFORE INSERT/UPDATE on opt_out_settings: words trimmed, lower case, de-duplicated, and checked with the rules of _shared/opt-out.ts (1-40 characters of letters, digits, spaces, '' and -; at most 20 per list; at least one word in all).';

create or replace function internal.skip_leads_on_do_not_contact()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- still due for a message (a first one or a follow-up) in one of the customer's campaigns on that platform
  update public.campaign_leads l
     set state = 'skipped', skip_reason = 'do_not_contact',
         last_error = 'The person is on the do-not-contact list.'
    from added a, public.campaigns c, public.platforms p
   where l.user_id = a.user_id and lower(l.username) = lower(a.target_username)
     and c.id = l.campaign_id and p.id = c.platform_id and p.name = a.platform
     and l.next_send_at is not null and l.state in ('pending', 'sent') and l.replied_at is null;
  return null;
end
$$;
comment on function internal.skip_leads_on_do_not_contact() is
  'AFTER INSERT on do_not_contact: the people added are skipped (do_not_contact) in campaigns that still had a message due for them.';

create trigger contact_ledger_fill_workspace_id before insert on public.contact_ledger for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_campaign_account();

create trigger do_not_contact_fill_workspace_id before insert on public.do_not_contact for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_creator();

create trigger do_not_contact_skip_leads after insert on public.do_not_contact referencing new table as added for each statement execute function internal.skip_leads_on_do_not_contact();

create trigger opt_out_settings_check before insert or update on public.opt_out_settings for each row execute function internal.check_opt_out_words();

create trigger opt_out_settings_fill_workspace_id before insert on public.opt_out_settings for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_creator();

-- Row-level security ------------------------------------------------------------------------------

alter table public.contact_ledger enable row level security;

create policy "The runner claims contacts" on public.contact_ledger
  for insert
  to reachflow_runner
  with check (true);

create policy "The runner reads the contact ledger" on public.contact_ledger
  for select
  to reachflow_runner
  using (true);

create policy "Members can read the workspace's contact ledger" on public.contact_ledger
  for select
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) as active_workspace_with_role)));

alter table public.do_not_contact enable row level security;

create policy "The runner reads do-not-contact lists" on public.do_not_contact
  for select
  to reachflow_runner
  using (true);

create policy "The runner records opt-outs" on public.do_not_contact
  for insert
  to reachflow_runner
  with check (true);

create policy "Members can read the workspace's do-not-contact list" on public.do_not_contact
  for select
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) as active_workspace_with_role)));

create policy "Members who edit can create the workspace's do-not-contact list" on public.do_not_contact
  for insert
  to authenticated
  with check (((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)) and (user_id = ( select auth.uid() as uid))));

create policy "Members who edit can delete the workspace's do-not-contact list" on public.do_not_contact
  for delete
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)));

alter table public.opt_out_settings enable row level security;

create policy "The runner reads opt-out words" on public.opt_out_settings
  for select
  to reachflow_runner
  using (true);

create policy "Members can read the workspace's opt-out words" on public.opt_out_settings
  for select
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) as active_workspace_with_role)));

create policy "Members who edit can change the workspace's opt-out words" on public.opt_out_settings
  for update
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)))
  with check ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)));

create policy "Members who edit can create the workspace's opt-out words" on public.opt_out_settings
  for insert
  to authenticated
  with check (((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) as active_workspace_with_role)) and (user_id = ( select auth.uid() as uid))));

-- Grants ------------------------------------------------------------------------------------------

revoke all on public.contact_ledger from anon;
revoke insert, update, delete, truncate, references, trigger on public.contact_ledger from authenticated;
grant select, insert on public.contact_ledger to reachflow_runner;

revoke all on public.do_not_contact from anon;
revoke insert, update, truncate, references, trigger on public.do_not_contact from authenticated;
grant select, insert on public.do_not_contact to reachflow_runner;
grant insert (user_id, platform, target_username, reason) on public.do_not_contact to authenticated;

revoke all on public.opt_out_settings from anon;
revoke insert, update, delete, truncate, references, trigger on public.opt_out_settings from authenticated;
grant select on public.opt_out_settings to reachflow_runner;
grant insert (user_id, anywhere, at_start) on public.opt_out_settings to authenticated;
grant update (anywhere, at_start) on public.opt_out_settings to authenticated;

revoke execute on function internal.check_opt_out_words() from public;
revoke execute on function internal.skip_leads_on_do_not_contact() from public;

-- RPCs --------------------------------------------------------------------------------------------

create or replace function public.add_do_not_contact(p_entries jsonb)
returns table(entry integer, platform text, target_username text, outcome text, error text)
language plpgsql
set search_path = ''
as $$
-- p_entries: [{platform, username, reason?}] (at most 5000). One row back per entry, in order:
-- added | already (on the list before) | duplicate (repeated in this batch, merged) | invalid (error).
#variable_conflict use_column
declare
  me uuid := (select auth.uid());
begin
  if me is null then
    raise exception 'User not authenticated' using errcode = '42501';
  end if;
  perform internal.require_active_role('{owner,admin,editor}');
  if jsonb_typeof(p_entries) is distinct from 'array' then
    raise exception 'Entries must be a list of {platform, username}.' using errcode = '22023';
  end if;
  if jsonb_array_length(p_entries) > 5000 then
    raise exception 'At most 5,000 people per import: split the file.' using errcode = '22023';
  end if;
  return query
  with raw as (
    select e.ordinality::integer as pos,
           lower(btrim(coalesce(e.value ->> 'platform', ''))) as platform_in,
           ltrim(btrim(coalesce(e.value ->> 'username', '')), '@') as username,
           nullif(btrim(coalesce(e.value ->> 'reason', '')), '') as reason
      from jsonb_array_elements(p_entries) with ordinality e
  ), checked as (
    select r.pos, r.username, r.reason,
           case when r.platform_in = 'x' then 'twitter' else r.platform_in end as platform,
           case
             when r.platform_in = '' then 'Choose a platform: Twitter or Instagram.'
             when not exists (select 1 from public.platforms p
                               where p.name = case when r.platform_in = 'x' then 'twitter' else r.platform_in end
                                 and p.is_active and not p.coming_soon)
               then format('Unknown platform "%s": use Twitter or Instagram.', left(r.platform_in, 30))
             when r.username = '' then 'The username is empty.'
             when (r.platform_in in ('twitter', 'x')) and r.username !~ '^[A-Za-z0-9_]{1,15}$'
               then format('"%s" is not an X username (1-15 letters, digits or _).', left(r.username, 40))
             when r.platform_in = 'instagram' and r.username !~ '^[A-Za-z0-9._]{1,30}$'
               then format('"%s" is not an Instagram username (1-30 letters, digits, . or _).', left(r.username, 40))
             when char_length(coalesce(r.reason, '')) > 500 then 'The note is longer than 500 characters.'
           end as problem
      from raw r
  ), ranked as (
    select c.*, row_number() over (partition by c.platform, lower(c.username) order by c.pos) as nth
      from checked c where c.problem is null
  ), inserted as (
    insert into public.do_not_contact (user_id, platform, target_username, reason)
    select me, k.platform, k.username, coalesce(k.reason, 'manual')
      from ranked k where k.nth = 1
    on conflict do nothing
    returning lower(do_not_contact.target_username) as username_key, do_not_contact.platform as platform_key
  )
  select c.pos, c.platform, c.username,
         case when c.problem is not null then 'invalid'
              when k.nth > 1 then 'duplicate'
              when exists (select 1 from inserted i where i.platform_key = c.platform and i.username_key = lower(c.username))
                then 'added'
              else 'already' end,
         c.problem
    from checked c left join ranked k on k.pos = c.pos
   order by c.pos;
end
$$;
comment on function public.add_do_not_contact(jsonb) is
  'Adds people to the caller''s do-not-contact list ([{platform, username, reason?}], at most 5000): one outcome per entry (added, already, duplicate, invalid with the reason), nothing lost on bad rows.';
revoke execute on function public.add_do_not_contact(jsonb) from public, anon;

create or replace function public.do_not_contact_entries(p_search text default null::text, p_platform text default null::text, p_limit integer default 50, p_offset integer default 0)
returns table(id uuid, platform text, target_username text, reason text, created_at timestamp with time zone, skipped_leads bigint, total bigint)
language plpgsql
stable security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  term text := btrim(coalesce(p_search, ''));
  -- one ILIKE pattern per column, wildcards in the term taken literally; null: no search
  in_username text;
  in_reason text;
begin
  -- security definer, reading only the active workspace's rows (workspace_id below): under RLS the
  -- planner may not use an index for ILIKE (not leakproof) ahead of the policy, so the trigram
  -- indexes went unused. A search is a few words: a longer one (70,000 characters took 6.9 s over
  -- 5,000 rows) is refused before anything is read.
  if char_length(term) > 100 then
    raise exception 'Search for at most 100 characters.' using errcode = '22023';
  end if;
  if term <> '' then
    in_username := '%' || replace(replace(replace(ltrim(term, '@'), '\', '\\'), '%', '\%'), '_', '\_') || '%';
    in_reason := '%' || replace(replace(replace(term, '\', '\\'), '%', '\%'), '_', '\_') || '%';
  end if;
  return query
  with page as (
    select d.*, count(*) over () as total
      from public.do_not_contact d
     where d.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))
       and (p_platform is null or d.platform = p_platform)
       and (in_username is null or d.target_username ilike in_username or d.reason ilike in_reason)
     order by d.created_at desc, lower(d.target_username), d.id
     limit least(greatest(coalesce(p_limit, 50), 1), 10000) offset greatest(coalesce(p_offset, 0), 0)
  )
  select p.id, p.platform, p.target_username, p.reason, p.created_at,
         (select count(*) from public.campaign_leads l
           join public.campaigns c on c.id = l.campaign_id
           join public.platforms pl on pl.id = c.platform_id
          where l.user_id = p.user_id and l.skip_reason = 'do_not_contact'
            and lower(l.username) = lower(p.target_username) and pl.name = p.platform),
         p.total
    from page p
   order by p.created_at desc, lower(p.target_username), p.id;
end
$$;
comment on function public.do_not_contact_entries(text, text, integer, integer) is
  'A page of the caller''s do-not-contact list (security definer, reading only the caller''s active workspace''s rows), newest first (then by username): search (at most 100 characters, 22023 beyond) in username and reason through the trigram indexes, optional platform, with how many campaign leads each entry skipped and the total matching.';
revoke execute on function public.do_not_contact_entries(text, text, integer, integer) from public, anon;

create or replace function public.do_not_contact_overview()
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'entries', (select count(*) from public.do_not_contact d where d.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))),
    'skippedLeads', (select count(*) from public.campaign_leads l
                      where l.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}')) and l.skip_reason = 'do_not_contact'),
    'words', coalesce(
      (select jsonb_build_object('anywhere', to_jsonb(s.anywhere), 'atStart', to_jsonb(s.at_start), 'custom', true)
         from public.opt_out_settings s where s.workspace_id = (select internal.active_workspace_with_role('{owner,admin,editor,viewer}'))),
      jsonb_build_object('anywhere', '["unsubscribe"]'::jsonb, 'atStart', '["stop"]'::jsonb, 'custom', false)))
$$;
comment on function public.do_not_contact_overview() is
  'The do-not-contact screen''s header: {entries, skippedLeads (campaign leads skipped because of the list), words {anywhere, atStart, custom}}.';
revoke execute on function public.do_not_contact_overview() from public, anon;

create or replace function public.set_opt_out_words(p_anywhere text[], p_at_start text[])
returns jsonb
language sql
set search_path = ''
as $$
  -- the trigger normalises and checks them (22023 with the reason)
  insert into public.opt_out_settings as s (user_id, anywhere, at_start)
  values ((select auth.uid()), coalesce(p_anywhere, '{}'), coalesce(p_at_start, '{}'))
  on conflict (user_id) do update set anywhere = excluded.anywhere, at_start = excluded.at_start
  returning jsonb_build_object('anywhere', to_jsonb(s.anywhere), 'atStart', to_jsonb(s.at_start), 'custom', true)
$$;
comment on function public.set_opt_out_words(text[], text[]) is
  'Saves the caller''s opt-out words (both lists) and returns them as stored: trimmed, lower case, once each.';
revoke execute on function public.set_opt_out_words(text[], text[]) from public, anon;
