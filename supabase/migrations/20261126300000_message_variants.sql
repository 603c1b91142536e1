-- Per-variant results (issue 21, item 2): which opening message (or follow-up) every DM used, so
-- campaign details can show sent, replies and reply rate per variant, and a campaign can switch to
-- its winning opening message after N sends per variant.
--
-- A variant is identified by its template text (per campaign, step and kind), not by its slot: a
-- message edited or moved later becomes a new variant instead of relabelling the DMs that went out
-- with the old text. dm_logs rows written before this migration have no variant and show as
-- "unknown variant": which slot they used cannot be known, so nothing is backfilled.

-- Tables ---------------------------------------------------------------------------------------

create table public.message_variants (
  id uuid primary key default gen_random_uuid(),
  campaign_id uuid not null references public.campaigns (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  step integer not null check (step >= 0),
  kind text not null check (kind in ('opening', 'no_name', 'follow_up')),
  slot integer not null check (slot >= 0),
  template text not null check (char_length(template) between 1 and 10000),
  created_at timestamptz not null default now(),
  check ((step = 0) = (kind in ('opening', 'no_name')))
);

alter table public.dm_logs
  add column variant_id uuid references public.message_variants (id) on delete set null,
  add column variant_index integer check (variant_index >= 0);

alter table public.campaigns
  add column winner_after_sends integer check (winner_after_sends between 30 and 10000),
  add column winner_variant_id uuid references public.message_variants (id) on delete set null,
  add column winner_chosen_at timestamptz;

-- Indexes --------------------------------------------------------------------------------------

-- One variant per text: the runner finds it by (campaign, step, kind, text) before every first DM.
create unique index message_variants_identity_key
  on public.message_variants (campaign_id, step, kind, md5(template));
create index message_variants_user_id_idx on public.message_variants (user_id);
-- The runner's tally of sends per opening variant (before each first DM) reads logs by variant.
create index dm_logs_variant_id_idx on public.dm_logs (variant_id) include (status, campaign_lead_id)
  where variant_id is not null;
create index campaigns_winner_variant_id_idx on public.campaigns (winner_variant_id)
  where winner_variant_id is not null;

comment on table public.message_variants is
  'The message texts a campaign has sent, one row per distinct text per step: opening variants (A, B, ...), the no-first-name message, follow-ups. dm_logs.variant_id says which one each DM used.';
comment on column public.message_variants.slot is
  'The text''s place among the campaign''s non-blank messages when it was first sent (0 = variant A; the follow-up''s number - 1).';
comment on column public.message_variants.kind is
  'opening (one of the first messages), no_name (the message for leads without a usable first name), follow_up.';
comment on column public.dm_logs.variant_id is 'Which message text this DM used; null for DMs sent before variants were recorded (unknown variant).';
comment on column public.dm_logs.variant_index is 'The variant''s place among the non-blank messages at send time (0 = variant A).';
comment on column public.campaigns.winner_after_sends is
  'Optional: once every opening variant has this many sends and one replies significantly better (95% confidence), only that one is sent.';
comment on column public.campaigns.winner_variant_id is 'The opening variant the runner chose as the winner; only it is sent while it is set. Set by the runner.';
comment on column public.campaigns.winner_chosen_at is 'When the winner was chosen.';

-- Triggers -------------------------------------------------------------------------------------

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
comment on function internal.prepare_message_variant() is 'BEFORE INSERT on message_variants: the owner is the campaign''s.';

create trigger message_variants_prepare
  before insert on public.message_variants
  for each row execute function internal.prepare_message_variant();

create or replace function internal.keep_campaign_winner_current()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- Turned off, or the winning text is no longer one of the messages: every variant is sent again
  -- (balanced), and a winner is chosen anew under the campaign's current rule.
  if new.winner_after_sends is null
     or (new.winner_variant_id is not null and not exists (
           select 1
             from public.message_variants v, pg_catalog.jsonb_array_elements_text(new.sequences -> 'messages') m
            where v.id = new.winner_variant_id and v.campaign_id = new.id and m = v.template)) then
    new.winner_variant_id := null;
    new.winner_chosen_at := null;
  end if;
  return new;
end
$$;
comment on function internal.keep_campaign_winner_current() is
  'BEFORE UPDATE of the winner rule or the messages on campaigns: forgets a winner that is turned off or whose text was edited away.';

create trigger campaigns_variant_winner_current
  before update of winner_after_sends, winner_variant_id, sequences on public.campaigns
  for each row when (new.winner_variant_id is not null)
  execute function internal.keep_campaign_winner_current();

-- Policies -------------------------------------------------------------------------------------

alter table public.message_variants enable row level security;

create policy "Users can read the message variants of their own campaigns"
  on public.message_variants for select to authenticated
  using (user_id = (select auth.uid()));
create policy "The runner reads message variants"
  on public.message_variants for select to reachflow_runner using (true);
create policy "The runner records message variants"
  on public.message_variants for insert to reachflow_runner with check (true);

-- Grants ---------------------------------------------------------------------------------------

revoke all on public.message_variants from anon, authenticated;
grant select on public.message_variants to authenticated;
grant all on public.message_variants to service_role;
grant select, insert on public.message_variants to reachflow_runner;
grant insert (winner_after_sends), update (winner_after_sends) on public.campaigns to authenticated;
grant update (winner_variant_id, winner_chosen_at) on public.campaigns to reachflow_runner;
revoke execute on function internal.prepare_message_variant(), internal.keep_campaign_winner_current() from public;

-- RPCs -----------------------------------------------------------------------------------------

create or replace function public.campaign_variant_stats(p_campaign_id uuid)
returns table (
  variant_id uuid,
  step integer,
  kind text,
  template text,
  first_slot integer,
  current_slot integer,
  sent integer,
  replies integer,
  first_sent_at timestamptz,
  last_sent_at timestamptz,
  is_winner boolean
)
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
    select l.variant_id, l.step, l.sent_at,
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
           min(s.sent_at) as first_sent_at, max(s.sent_at) as last_sent_at
      from sent_logs s
     group by s.variant_id, s.step
  )
  select r.* from (
    select v.id, v.step, v.kind, v.template, v.first_slot, v.current_slot,
           coalesce(t.sent, 0), coalesce(t.replies, 0), t.first_sent_at, t.last_sent_at,
           coalesce(v.id = (select c.winner_variant_id from campaign c), false)
      from variants v
      left join tallies t on t.variant_id = v.id
    union all
    select null, t.step, 'unknown', null, null, null, t.sent, t.replies, t.first_sent_at, t.last_sent_at, false
      from tallies t where t.variant_id is null
  ) r (variant_id, step, kind, template, first_slot, current_slot, sent, replies, first_sent_at, last_sent_at, is_winner)
  order by r.step, case r.kind when 'no_name' then 1 when 'unknown' then 2 else 0 end,
           r.current_slot nulls last, r.first_slot nulls last;
end
$$;
comment on function public.campaign_variant_stats(uuid) is
  'Per message variant of a DM campaign: step, kind (opening, no_name, follow_up, unknown = sent before variants were recorded), text, slot when first sent and now (null = no longer used), sent, replies (opening: the lead replied; follow-up: a reply after it, before the next message), first/last send, whether it is the chosen winner.';

revoke execute on function public.campaign_variant_stats(uuid) from public, anon;
grant execute on function public.campaign_variant_stats(uuid) to authenticated, service_role;
