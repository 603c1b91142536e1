-- Per-variant results say where the AI rewrote a message. With AI personalisation on, the variant a
-- lead got is the template the AI started from, and the text that went out is the AI's: the results
-- credited the variant with no sign that it was not sent as written. campaign_variant_stats now also
-- returns how many of each variant's sends the AI personalised and the latest such text sent.

SET local check_function_bodies = off;

DROP FUNCTION "public"."campaign_variant_stats"(uuid);

CREATE OR REPLACE FUNCTION public.campaign_variant_stats (
  p_campaign_id uuid
)
  RETURNS TABLE (
    variant_id          uuid,
    step                integer,
    kind                text,
    template            text,
    first_slot          integer,
    current_slot        integer,
    sent                integer,
    replies             integer,
    first_sent_at       timestamp with time zone,
    last_sent_at        timestamp with time zone,
    is_winner           boolean,
    personalized        integer,
    personalized_sample text
  )
  LANGUAGE plpgsql
  STABLE
  SET search_path TO ''
  AS $function$
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
$function$;

REVOKE ALL ON FUNCTION "public"."campaign_variant_stats"(uuid) FROM PUBLIC, "anon";

COMMENT ON FUNCTION "public"."campaign_variant_stats"(uuid) IS 'Per message variant of a DM campaign: step, kind (opening, no_name, follow_up, unknown = sent before variants were recorded), text, slot when first sent and now (null = no longer used), sent, replies (opening: the lead replied; follow-up: a reply after it, before the next message), first/last send, whether it is the chosen winner, and how many of its sends the AI personalised (credited to the variant it started from) with the latest such text sent.';

GRANT EXECUTE ON FUNCTION "public"."campaign_variant_stats"(uuid) TO "authenticated";

REVOKE ALL ON FUNCTION "public"."campaign_variant_stats"(uuid) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."campaign_variant_stats"(uuid) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."campaign_variant_stats"(uuid) TO "service_role";
