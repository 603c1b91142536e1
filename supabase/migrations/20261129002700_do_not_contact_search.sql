-- The do-not-contact search is capped and indexed: a 70,000-character term over 5,000 rows took 6.9 s
-- and four at once gave 500s. A term over 100 characters is refused (22023) before anything is read
-- (plpgsql, so the check runs first and each search is planned with its term), and trigram GIN
-- indexes on username and note serve ILIKE '%term%'. The function becomes security definer (it
-- reads only rows of auth.uid()): under RLS the planner keeps a non-leakproof ILIKE off an index.
-- Written by `npm run db:diff` (pg-delta).

SET local check_function_bodies = off;

DROP FUNCTION "public"."do_not_contact_entries"(text, text, integer, integer);

CREATE OR REPLACE FUNCTION public.do_not_contact_entries (
  p_search   text    DEFAULT NULL::text,
  p_platform text    DEFAULT NULL::text,
  p_limit    integer DEFAULT 50,
  p_offset   integer DEFAULT 0
)
  RETURNS TABLE (
    id              uuid,
    platform        text,
    target_username text,
    reason          text,
    created_at      timestamp with time zone,
    skipped_leads   bigint,
    total           bigint
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
#variable_conflict use_column
declare
  term text := btrim(coalesce(p_search, ''));
  -- one ILIKE pattern per column, wildcards in the term taken literally; null: no search
  in_username text;
  in_reason text;
begin
  -- security definer, reading only the caller's rows (user_id = auth.uid() below): under RLS the
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
     where d.user_id = (select auth.uid())
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
$function$;

REVOKE ALL ON FUNCTION "public"."do_not_contact_entries"(text, text, integer, integer) FROM PUBLIC, "anon";

CREATE INDEX do_not_contact_reason_search_idx ON public.do_not_contact USING gin (reason extensions.gin_trgm_ops);

CREATE INDEX do_not_contact_username_search_idx ON public.do_not_contact USING gin (target_username extensions.gin_trgm_ops);

COMMENT ON FUNCTION "public"."do_not_contact_entries"(text, text, integer, integer) IS 'A page of the caller''s do-not-contact list (security definer, reading only rows of auth.uid()), newest first (then by username): search (at most 100 characters, 22023 beyond) in username and reason through the trigram indexes, optional platform, with how many campaign leads each entry skipped and the total matching.';

GRANT EXECUTE ON FUNCTION "public"."do_not_contact_entries"(text, text, integer, integer) TO "authenticated";

REVOKE ALL ON FUNCTION "public"."do_not_contact_entries"(text, text, integer, integer) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."do_not_contact_entries"(text, text, integer, integer) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."do_not_contact_entries"(text, text, integer, integer) TO "service_role";
