-- The do-not-contact screen: customers list, search, add, import, export and remove the people
-- Reachflow must never message, and edit the opt-out words that put someone there by reply.
--  * opt_out_settings: the customer's two lists of opt-out words (anywhere in a reply / at the start
--    of a short one); no row = the defaults. The runner reads it when it records a reply
--    (runner/src/inbox/replies.ts, rules in supabase/functions/_shared/opt-out.ts); a trigger
--    checks the same rules on every write.
--  * add_do_not_contact(entries): adds many people at once with one outcome per entry (added,
--    already on the list, duplicate merged, invalid with the reason), so a CSV import loses no row.
--  * do_not_contact_entries(...): a page of the list with how many leads each entry skipped;
--    do_not_contact_overview(): the counts and the words; set_opt_out_words(...) saves the words.
--  * Someone added to the list is skipped at once in the campaigns that still had a message due
--    for them (the runner would skip them at their next send anyway; now the screen's count and
--    the campaign's figures say so straight away). Removing someone does not bring skipped leads
--    back: only campaigns that reach them later can message them.

-- Tables ---------------------------------------------------------------------------------------

create table public.opt_out_settings (
  user_id uuid primary key default auth.uid() references auth.users (id) on delete cascade,
  anywhere text[] not null default '{unsubscribe}',
  at_start text[] not null default '{stop}',
  updated_at timestamptz not null default now()
);

comment on table public.opt_out_settings is
  'A customer''s opt-out words; without a row the defaults apply (anywhere: unsubscribe; at the start of a short reply: stop). Read by the runner when it records replies.';
comment on column public.opt_out_settings.anywhere is 'Words or phrases that opt a person out wherever they appear in a reply (whole words, any case).';
comment on column public.opt_out_settings.at_start is
  'Words or phrases that opt a person out when a reply starts with them and has at most two more words ("stop please").';

-- Indexes --------------------------------------------------------------------------------------

-- Leads skipped because of the list, counted per customer and per person on the screen.
create index campaign_leads_do_not_contact_idx on public.campaign_leads (user_id, lower(username))
  where skip_reason = 'do_not_contact';
-- The screen's search and order within a customer's list.
create index do_not_contact_user_created_idx on public.do_not_contact (user_id, created_at desc);

-- Triggers -------------------------------------------------------------------------------------

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

create trigger opt_out_settings_check
  before insert or update on public.opt_out_settings
  for each row execute function internal.check_opt_out_words();

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

create trigger do_not_contact_skip_leads
  after insert on public.do_not_contact
  referencing new table as added
  for each statement execute function internal.skip_leads_on_do_not_contact();

-- Policies -------------------------------------------------------------------------------------

alter table public.opt_out_settings enable row level security;

create policy "Users can read their own opt-out words"
  on public.opt_out_settings for select to authenticated
  using (user_id = (select auth.uid()));
create policy "Users can set their own opt-out words"
  on public.opt_out_settings for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy "Users can change their own opt-out words"
  on public.opt_out_settings for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
create policy "The runner reads opt-out words"
  on public.opt_out_settings for select to reachflow_runner
  using (true);

-- Grants ---------------------------------------------------------------------------------------

revoke all on public.opt_out_settings from anon, authenticated;
grant select on public.opt_out_settings to authenticated, reachflow_runner;
grant insert (user_id, anywhere, at_start), update (anywhere, at_start) on public.opt_out_settings to authenticated;
grant all on public.opt_out_settings to service_role;
revoke execute on function internal.check_opt_out_words(), internal.skip_leads_on_do_not_contact() from public;

-- RPCs -----------------------------------------------------------------------------------------

create or replace function public.do_not_contact_overview()
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'entries', (select count(*) from public.do_not_contact d where d.user_id = (select auth.uid())),
    'skippedLeads', (select count(*) from public.campaign_leads l
                      where l.user_id = (select auth.uid()) and l.skip_reason = 'do_not_contact'),
    'words', coalesce(
      (select jsonb_build_object('anywhere', to_jsonb(s.anywhere), 'atStart', to_jsonb(s.at_start), 'custom', true)
         from public.opt_out_settings s where s.user_id = (select auth.uid())),
      jsonb_build_object('anywhere', '["unsubscribe"]'::jsonb, 'atStart', '["stop"]'::jsonb, 'custom', false)))
$$;
comment on function public.do_not_contact_overview() is
  'The do-not-contact screen''s header: {entries, skippedLeads (campaign leads skipped because of the list), words {anywhere, atStart, custom}}.';

create or replace function public.do_not_contact_entries(
  p_search text default null,
  p_platform text default null,
  p_limit integer default 50,
  p_offset integer default 0
)
returns table (
  id uuid,
  platform text,
  target_username text,
  reason text,
  created_at timestamptz,
  skipped_leads bigint,
  total bigint
)
language sql
stable
set search_path = ''
as $$
  with page as (
    select d.*, count(*) over () as total
      from public.do_not_contact d
     where d.user_id = (select auth.uid())
       and (p_platform is null or d.platform = p_platform)
       and (coalesce(btrim(p_search), '') = ''
            or d.target_username ilike '%' || replace(replace(replace(ltrim(btrim(p_search), '@'), '\', '\\'), '%', '\%'), '_', '\_') || '%'
            or d.reason ilike '%' || replace(replace(replace(btrim(p_search), '\', '\\'), '%', '\%'), '_', '\_') || '%')
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
   order by p.created_at desc, lower(p.target_username), p.id
$$;
comment on function public.do_not_contact_entries(text, text, integer, integer) is
  'A page of the caller''s do-not-contact list, newest first (then by username): search in username and reason, optional platform, with how many campaign leads each entry skipped and the total matching.';

create or replace function public.add_do_not_contact(p_entries jsonb)
returns table (entry integer, platform text, target_username text, outcome text, error text)
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

revoke execute on function public.do_not_contact_overview(), public.do_not_contact_entries(text, text, integer, integer),
  public.add_do_not_contact(jsonb), public.set_opt_out_words(text[], text[]) from public, anon;
grant execute on function public.do_not_contact_overview(), public.do_not_contact_entries(text, text, integer, integer),
  public.add_do_not_contact(jsonb), public.set_opt_out_words(text[], text[]) to authenticated, service_role;
