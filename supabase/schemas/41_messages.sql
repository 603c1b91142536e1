-- What DM campaigns send: the DM log of every message and its state, and the message variants each
-- opening and follow-up text is counted under (the winner rule).

-- Tables ------------------------------------------------------------------------------------------

create table public.dm_logs (
  id uuid not null default gen_random_uuid(),
  campaign_id uuid not null,
  campaign_lead_id uuid not null,
  account_id uuid,
  user_id uuid not null,
  step integer not null,
  message_type text not null,
  status text not null,
  target_username text not null,
  message_sent text,
  error text,
  sent_at timestamp with time zone not null default now(),
  created_at timestamp with time zone not null default now(),
  variant_id uuid,
  variant_index integer,
  personalization text,
  personalization_note text,
  incident_id uuid,
  seen_before text[],
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint dm_logs_pkey primary key (id),
  constraint dm_logs_campaign_lead_id_step_key unique (campaign_lead_id, step),
  constraint dm_logs_message_type_check check ((message_type = any (array['initial'::text, 'follow_up'::text]))),
  constraint dm_logs_personalization_check check ((personalization = any (array['personalized'::text, 'fallback'::text]))),
  constraint dm_logs_personalization_note_check check ((char_length(personalization_note) <= 300)),
  constraint dm_logs_status_check check ((status = any (array['sent'::text, 'failed'::text, 'error'::text, 'uncertain'::text, 'deferred'::text, 'skipped'::text]))),
  constraint dm_logs_step_check check ((step >= 0)),
  constraint dm_logs_variant_index_check check ((variant_index >= 0)),
  constraint dm_logs_account_id_fkey foreign key (account_id) references public.social_accounts(id) on delete set null,
  constraint dm_logs_campaign_id_fkey foreign key (campaign_id) references public.campaigns(id) on delete cascade,
  constraint dm_logs_campaign_lead_id_fkey foreign key (campaign_lead_id) references public.campaign_leads(id) on delete cascade,
  constraint dm_logs_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint dm_logs_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.dm_logs is
  'Every DM attempt: at most one row per lead and step, so a message is never recorded (or sent) twice.';
comment on column public.dm_logs.step is '0 = initial message, 1.. = follow-up number.';
comment on column public.dm_logs.status is
  'sent (confirmed on the page), failed / error (not sent), uncertain (could not confirm; the runner checks the thread later), deferred (not attempted: the DM page ran out of time before send was pressed, the machine or network was slow, or the page met a site change; not held against the account, left out of the failed figures, the step is due again), skipped (the platform refused this lead: closed inbox, verified-only, cannot be messaged; nothing went out, the lead is skipped, and the row counts in no figure: not an attempt, not a failure, not today''s sends).';
comment on column public.dm_logs.variant_id is
  'Which message text this DM used; null for DMs sent before variants were recorded (unknown variant).';
comment on column public.dm_logs.variant_index is
  'The variant''s place among the non-blank messages at send time (0 = variant A).';
comment on column public.dm_logs.personalization is
  'personalized: message_sent is the AI''s text; fallback: personalisation was on but failed, message_sent is the template (personalization_note says why); null: personalisation was off.';
comment on column public.dm_logs.incident_id is
  'Set when the attempt met a site change: not the account''s fault (the breaker skips it).';
comment on column public.dm_logs.seen_before is
  'An uncertain send''s thread as the send saw it before typing: the platform ids of its rows. None of them is this send, whatever its text, when the thread is checked later (X rows carry no time). Written by the runner.';
comment on column public.dm_logs.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

create table public.message_variants (
  id uuid not null default gen_random_uuid(),
  campaign_id uuid not null,
  user_id uuid not null,
  step integer not null,
  kind text not null,
  slot integer not null,
  template text not null,
  created_at timestamp with time zone not null default now(),
  workspace_id uuid not null default internal.active_workspace_id(),
  constraint message_variants_pkey primary key (id),
  constraint message_variants_check check (((step = 0) = (kind = any (array['opening'::text, 'no_name'::text])))),
  constraint message_variants_kind_check check ((kind = any (array['opening'::text, 'no_name'::text, 'follow_up'::text]))),
  constraint message_variants_slot_check check ((slot >= 0)),
  constraint message_variants_step_check check ((step >= 0)),
  constraint message_variants_template_check check (((char_length(template) >= 1) and (char_length(template) <= 10000))),
  constraint message_variants_campaign_id_fkey foreign key (campaign_id) references public.campaigns(id) on delete cascade,
  constraint message_variants_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade,
  constraint message_variants_workspace_id_fkey foreign key (workspace_id) references public.workspaces(id) on delete cascade
);
comment on table public.message_variants is
  'The message texts a campaign has sent, one row per distinct text per step: opening variants (A, B, ...), the no-first-name message, follow-ups. dm_logs.variant_id says which one each DM used.';
comment on column public.message_variants.kind is
  'opening (one of the first messages), no_name (the message for leads without a usable first name), follow_up.';
comment on column public.message_variants.slot is
  'The text''s place among the campaign''s non-blank messages when it was first sent (0 = variant A; the follow-up''s number - 1).';
comment on column public.message_variants.workspace_id is
  'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

alter table public.campaigns add constraint campaigns_winner_variant_id_fkey foreign key (winner_variant_id) references public.message_variants(id) on delete set null;

alter table public.dm_logs add constraint dm_logs_variant_id_fkey foreign key (variant_id) references public.message_variants(id) on delete set null;

-- Indexes -----------------------------------------------------------------------------------------

create index dm_logs_account_id_lower_target_idx on public.dm_logs (account_id, lower(target_username));
create index dm_logs_account_id_sent_at_idx on public.dm_logs (account_id, sent_at desc);
create index dm_logs_campaign_id_sent_at_idx on public.dm_logs (campaign_id, sent_at desc);
create index dm_logs_incident_id_idx on public.dm_logs (incident_id) where (incident_id is not null);
create index dm_logs_user_id_sent_at_idx on public.dm_logs (user_id, sent_at desc) include (status);
create index dm_logs_variant_id_idx on public.dm_logs (variant_id) include (status, campaign_lead_id) where (variant_id is not null);
create index dm_logs_workspace_id_sent_at_idx on public.dm_logs (workspace_id, sent_at desc) include (status);

create unique index message_variants_identity_key on public.message_variants (campaign_id, step, kind, md5(template));
create index message_variants_user_id_idx on public.message_variants (user_id);
create index message_variants_workspace_id_idx on public.message_variants (workspace_id);

-- Triggers ----------------------------------------------------------------------------------------

create or replace function internal.count_daily_message()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into public.campaign_daily_stats as s (campaign_id, user_id, day, attempts, sent, failed, uncertain)
    select c.id, c.user_id, pg_catalog.timezone(c.schedule ->> 'timezone', new.sent_at)::date, 1,
           (new.status = 'sent')::int, (new.status in ('failed', 'error'))::int, (new.status = 'uncertain')::int
      from public.campaigns c
     where c.id = new.campaign_id
    on conflict (campaign_id, day) do update
       set attempts = s.attempts + 1,
           sent = s.sent + excluded.sent,
           failed = s.failed + excluded.failed,
           uncertain = s.uncertain + excluded.uncertain;
  else
    -- A resolved send (uncertain -> sent or failed) moves between columns: out of the day it was
    -- counted on (old.sent_at), into the day of its new time (a retry stamps the time it went out).
    -- A refused lead (-> skipped) was no attempt: its attempt leaves the day it was logged on.
    update public.campaign_daily_stats s
       set attempts = greatest(0, s.attempts - (new.status = 'skipped')::int + (old.status = 'skipped')::int),
           sent = s.sent - (old.status = 'sent')::int,
           failed = greatest(0, s.failed - (old.status in ('failed', 'error'))::int),
           uncertain = greatest(0, s.uncertain - (old.status = 'uncertain')::int)
      from public.campaigns c
     where c.id = new.campaign_id and s.campaign_id = c.id
       and s.day = pg_catalog.timezone(c.schedule ->> 'timezone', old.sent_at)::date;
    insert into public.campaign_daily_stats as s (campaign_id, user_id, day, sent, failed, uncertain)
    select c.id, c.user_id, pg_catalog.timezone(c.schedule ->> 'timezone', new.sent_at)::date,
           (new.status = 'sent')::int, (new.status in ('failed', 'error'))::int, (new.status = 'uncertain')::int
      from public.campaigns c
     where c.id = new.campaign_id
    on conflict (campaign_id, day) do update
       set sent = s.sent + excluded.sent,
           failed = s.failed + excluded.failed,
           uncertain = s.uncertain + excluded.uncertain;
  end if;
  return null;
end
$$;
comment on function internal.count_daily_message() is
  'AFTER INSERT/UPDATE of status on dm_logs: moves the log''s day figures (attempts on the day it was logged, none for a lead the platform refused; sent, failed, uncertain on the day of its sent_at).';

create or replace function internal.count_dm_log()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  was_sent boolean := tg_op = 'UPDATE' and old.status = 'sent';
  was_failed boolean := tg_op = 'UPDATE' and old.status in ('failed', 'error');
  counts_today boolean := tg_op = 'INSERT' and new.status in ('sent', 'uncertain');
  -- the platform refused the lead once the step was claimed: nothing went out, so the claim's
  -- attempt and its place in today's sends are given back (a refusal counts against nothing)
  refused boolean := tg_op = 'UPDATE' and new.status = 'skipped' and old.status in ('sent', 'uncertain');
  platform_name text;
begin
  update public.campaigns c
     set total_attempts = c.total_attempts + case when tg_op = 'INSERT' then 1 else 0 end
                                           - case when refused then 1 else 0 end
                                           + case when tg_op = 'UPDATE' and old.status = 'skipped' and new.status <> 'skipped' then 1 else 0 end,
         messages_sent = c.messages_sent + case when new.status = 'sent' and not was_sent then 1 else 0 end,
         -- the messages whose log says not delivered now: a retry that leaves failed takes it back
         messages_failed = c.messages_failed + case when new.status in ('failed', 'error') and not was_failed then 1 else 0 end
                                             - case when was_failed and new.status not in ('failed', 'error') then 1 else 0 end,
         -- Today's counter (in the schedule's zone) counts anything that may have gone out.
         messages_sent_today = case
           when refused and c.sent_today_on = (old.sent_at at time zone (c.schedule ->> 'timezone'))::date
             then greatest(0, c.messages_sent_today - 1)
           when not counts_today then c.messages_sent_today
           when c.sent_today_on = (new.sent_at at time zone (c.schedule ->> 'timezone'))::date then c.messages_sent_today + 1
           when c.sent_today_on is null or c.sent_today_on < (new.sent_at at time zone (c.schedule ->> 'timezone'))::date then 1
           else c.messages_sent_today end,
         sent_today_on = case
           when counts_today and (c.sent_today_on is null or c.sent_today_on < (new.sent_at at time zone (c.schedule ->> 'timezone'))::date)
             then (new.sent_at at time zone (c.schedule ->> 'timezone'))::date
           else c.sent_today_on end
   where c.id = new.campaign_id;

  if refused and old.account_id is not null then
    update public.social_accounts a
       set messages_sent_today = greatest(0, a.messages_sent_today - 1)
     where a.id = old.account_id and a.sent_today_on = (old.sent_at at time zone a.timezone)::date;
  end if;

  if counts_today and new.account_id is not null then
    update public.social_accounts a
       set messages_sent_today = case
             when a.sent_today_on = (new.sent_at at time zone a.timezone)::date then a.messages_sent_today + 1
             when a.sent_today_on is null or a.sent_today_on < (new.sent_at at time zone a.timezone)::date then 1
             else a.messages_sent_today end,
           sent_today_on = greatest(a.sent_today_on, (new.sent_at at time zone a.timezone)::date)
     where a.id = new.account_id;
  end if;

  if new.status in ('sent', 'uncertain') then
    select p.name into platform_name
      from public.campaigns c join public.platforms p on p.id = c.platform_id where c.id = new.campaign_id;
    insert into public.contact_ledger (user_id, platform, target_username, first_contacted_at, campaign_id, account_id)
    values (new.user_id, platform_name, new.target_username, new.sent_at, new.campaign_id, new.account_id)
    on conflict do nothing;
  end if;
  return null;
end
$$;
comment on function internal.count_dm_log() is
  'AFTER INSERT/UPDATE of status on dm_logs: campaign counters (messages_failed = logs failed or error now; a log skipped because the platform refused the lead gives its attempt back), today''s counters of campaign and account, and the contact ledger.';

create or replace function internal.prepare_dm_log()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select c.user_id into new.user_id from public.campaigns c where c.id = new.campaign_id;
  if not exists (select 1 from public.campaign_leads l where l.id = new.campaign_lead_id and l.campaign_id = new.campaign_id) then
    raise exception 'The lead does not belong to this campaign' using errcode = '23503';
  end if;
  new.message_type := case when new.step = 0 then 'initial' else 'follow_up' end;
  return new;
end
$$;
comment on function internal.prepare_dm_log() is
  'BEFORE INSERT on dm_logs: owner from the campaign, lead must be in the campaign, message_type from the step.';

create or replace function internal.prepare_message_variant()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select c.user_id into new.user_id from public.campaigns c where c.id = new.campaign_id;
  return new;
end
$$;
comment on function internal.prepare_message_variant() is
  'BEFORE INSERT on message_variants: the owner is the campaign''s.';

create trigger dm_logs_count_daily_insert after insert on public.dm_logs for each row execute function internal.count_daily_message();

create trigger dm_logs_count_daily_status_change after update of status on public.dm_logs for each row when ((old.status is distinct from new.status)) execute function internal.count_daily_message();

create trigger dm_logs_count_insert after insert on public.dm_logs for each row execute function internal.count_dm_log();

create trigger dm_logs_count_status_change after update of status on public.dm_logs for each row when ((old.status is distinct from new.status)) execute function internal.count_dm_log();

create trigger dm_logs_fill_workspace_id before insert on public.dm_logs for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_campaign();

create trigger dm_logs_prepare before insert on public.dm_logs for each row execute function internal.prepare_dm_log();

create trigger message_variants_fill_workspace_id before insert on public.message_variants for each row when ((new.workspace_id is null)) execute function internal.fill_workspace_id_from_campaign();

create trigger message_variants_prepare before insert on public.message_variants for each row execute function internal.prepare_message_variant();

-- Row-level security ------------------------------------------------------------------------------

alter table public.dm_logs enable row level security;

create policy "The runner reads message logs" on public.dm_logs
  for select
  to reachflow_runner
  using (true);

create policy "The runner updates message logs" on public.dm_logs
  for update
  to reachflow_runner
  using (true)
  with check (true);

create policy "The runner writes message logs" on public.dm_logs
  for insert
  to reachflow_runner
  with check (true);

create policy "Members can read the workspace's message logs" on public.dm_logs
  for select
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) as active_workspace_with_role)));

alter table public.message_variants enable row level security;

create policy "The runner reads message variants" on public.message_variants
  for select
  to reachflow_runner
  using (true);

create policy "The runner records message variants" on public.message_variants
  for insert
  to reachflow_runner
  with check (true);

create policy "Members can read the workspace's message variants" on public.message_variants
  for select
  to authenticated
  using ((workspace_id = ( select internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) as active_workspace_with_role)));

-- Grants ------------------------------------------------------------------------------------------

revoke all on public.dm_logs from anon;
revoke insert, update, delete, truncate, references, trigger on public.dm_logs from authenticated;
grant select, insert on public.dm_logs to reachflow_runner;
grant update (account_id, status, message_sent, error, sent_at, personalization, personalization_note, incident_id, seen_before) on public.dm_logs to reachflow_runner;

revoke all on public.message_variants from anon;
revoke insert, update, delete, truncate, references, trigger on public.message_variants from authenticated;
grant select, insert on public.message_variants to reachflow_runner;

revoke execute on function internal.count_daily_message() from public;
revoke execute on function internal.count_dm_log() from public;
revoke execute on function internal.prepare_dm_log() from public;
revoke execute on function internal.prepare_message_variant() from public;

-- RPCs --------------------------------------------------------------------------------------------

create or replace function public.campaign_variant_stats(p_campaign_id uuid)
returns table(variant_id uuid, step integer, kind text, template text, first_slot integer, current_slot integer, sent integer, replies integer, first_sent_at timestamp with time zone, last_sent_at timestamp with time zone, is_winner boolean, personalized integer, personalized_sample text)
language plpgsql
stable
set search_path = ''
as $$
#variable_conflict use_column
begin
  -- security invoker: RLS decides, so another customer's campaign is simply not found
  if not exists (select 1 from public.campaigns c where c.id = p_campaign_id) then
    raise exception 'Campaign not found' using errcode = 'PT404';
  end if;
  return query
  with campaign as (
    select c.sequences, c.winner_variant_id from public.campaigns c where c.id = p_campaign_id
  ), current_texts as (
    -- the texts the runner sends now, with their slots among the non-blank ones
    select distinct on (t.step, t.kind, t.text) t.step, t.kind, t.text, t.slot
      from (
        select 0 as step, 'opening' as kind, m.text,
               (pg_catalog.row_number() over (order by m.ord) - 1)::int as slot
          from campaign c, pg_catalog.jsonb_array_elements_text(c.sequences -> 'messages') with ordinality m(text, ord)
         where pg_catalog.btrim(m.text) <> ''
        union all
        select 0, 'no_name', c.sequences ->> 'noFirstnameMessage', 0
          from campaign c where pg_catalog.btrim(coalesce(c.sequences ->> 'noFirstnameMessage', '')) <> ''
        union all
        select f.slot + 1, 'follow_up', f.text, f.slot
          from (select f.text, (pg_catalog.row_number() over (order by f.ord) - 1)::int as slot
                  from campaign c, pg_catalog.jsonb_array_elements_text(c.sequences -> 'followUpMessages') with ordinality f(text, ord)
                 where (c.sequences ->> 'followUpEnabled')::boolean and pg_catalog.btrim(f.text) <> '') f
      ) t
     order by t.step, t.kind, t.text, t.slot
  ), variants as (
    select v.id, v.step, v.kind, v.template, v.slot as first_slot, t.slot as current_slot
      from public.message_variants v
      left join current_texts t on t.step = v.step and t.kind = v.kind and t.text = v.template
     where v.campaign_id = p_campaign_id
    union all
    -- messages not sent yet have no variant row, but belong in the table with 0 sends
    select null, t.step, t.kind, t.text, t.slot, t.slot
      from current_texts t
     where not exists (select 1 from public.message_variants v
                        where v.campaign_id = p_campaign_id and v.step = t.step and v.kind = t.kind
                          and pg_catalog.md5(v.template) = pg_catalog.md5(t.text) and v.template = t.text)
  ), sent_logs as (
    -- an opening message is credited with its lead's reply at any point of the sequence; a
    -- follow-up with a reply that came after it and before the next message
    select l.variant_id, l.step, l.sent_at, l.personalization = 'personalized' as personalized, l.message_sent,
           l.step = 0 and cl.replied_at is not null
           or l.step > 0 and cl.replied_at >= l.sent_at
              and not exists (select 1 from public.dm_logs n
                               where n.campaign_lead_id = l.campaign_lead_id and n.step = l.step + 1
                                 and n.status = 'sent' and n.sent_at <= cl.replied_at) as replied
      from public.dm_logs l
      join public.campaign_leads cl on cl.id = l.campaign_lead_id
     where l.campaign_id = p_campaign_id and l.status = 'sent'
  ), tallies as (
    select s.variant_id, s.step, count(*)::int as sent, (count(*) filter (where s.replied))::int as replies,
           min(s.sent_at) as first_sent_at, max(s.sent_at) as last_sent_at,
           -- the AI rewrote these: the variant is credited, and the screen says what went out instead
           (count(*) filter (where s.personalized))::int as personalized,
           (pg_catalog.array_agg(s.message_sent order by s.sent_at desc) filter (where s.personalized))[1] as personalized_sample
      from sent_logs s
     group by s.variant_id, s.step
  )
  select r.* from (
    select v.id, v.step, v.kind, v.template, v.first_slot, v.current_slot,
           coalesce(t.sent, 0), coalesce(t.replies, 0), t.first_sent_at, t.last_sent_at,
           coalesce(v.id = (select c.winner_variant_id from campaign c), false),
           coalesce(t.personalized, 0), t.personalized_sample
      from variants v
      left join tallies t on t.variant_id = v.id
    union all
    select null, t.step, 'unknown', null, null, null, t.sent, t.replies, t.first_sent_at, t.last_sent_at, false,
           t.personalized, t.personalized_sample
      from tallies t where t.variant_id is null
  ) r (variant_id, step, kind, template, first_slot, current_slot, sent, replies, first_sent_at, last_sent_at, is_winner,
       personalized, personalized_sample)
  order by r.step, case r.kind when 'no_name' then 1 when 'unknown' then 2 else 0 end,
           r.current_slot nulls last, r.first_slot nulls last;
end
$$;
comment on function public.campaign_variant_stats(uuid) is
  'Per message variant of a DM campaign: step, kind (opening, no_name, follow_up, unknown = sent before variants were recorded), text, slot when first sent and now (null = no longer used), sent, replies (opening: the lead replied; follow-up: a reply after it, before the next message), first/last send, whether it is the chosen winner, and how many of its sends the AI personalised (credited to the variant it started from) with the latest such text sent.';
revoke execute on function public.campaign_variant_stats(uuid) from public, anon;
