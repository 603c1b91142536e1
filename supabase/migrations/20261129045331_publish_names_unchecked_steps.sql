-- Publishing a pack needs every step of its canary try run: a skipped step (no conversation for
-- "Open a known thread") checked nothing, yet the try counted as passed. admin_publish_pack now
-- answers 'unchecked' for such a try unless the operator names exactly the skipped steps
-- (p_unchecked); the publication records them (unchecked_steps) and the pack's history shows them.
-- Written by `npm run db:diff` (pg-delta) from supabase/schemas.

SET local check_function_bodies = off;

DROP FUNCTION "public"."admin_publish_pack"(text, uuid, uuid);

ALTER TABLE "public"."platform_pack_publications"
  ADD COLUMN "unchecked_steps" text[];

CREATE OR REPLACE FUNCTION public.admin_platform_pack (
  p_platform text
)
  RETURNS jsonb
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  -- The code default, what is published, what is in effect, where Roll back goes, the history.
  with code as (select * from internal.code_pack(p_platform)),
  pubs as (
    select pub.id, pub.pack_id, pub.kind, pub.published_at, pub.previous_publication_id, pub.unchecked_steps, u.email as published_by,
           p.version, p.facts, row_number() over (order by pub.id desc) as n
      from public.platform_pack_publications pub
      left join public.platform_packs p on p.id = pub.pack_id
      left join auth.users u on u.id = pub.published_by
     where pub.platform = p_platform
  ),
  cur as (select * from pubs where n = 1),
  prev as (select pubs.* from pubs join cur on pubs.id = cur.previous_publication_id)
  select jsonb_build_object(
    'platform', p_platform,
    'codeDefault', (select jsonb_build_object('packId', c.pack_id, 'version', c.version, 'facts', c.facts,
                                              'registeredAt', c.registered_at) from code c),
    'effective', coalesce(
      (select jsonb_build_object('source', 'operator', 'packId', cur.pack_id, 'version', cur.version, 'facts', cur.facts,
                                 'publishedAt', cur.published_at, 'publishedBy', cur.published_by, 'kind', cur.kind)
         from cur where cur.pack_id is not null),
      (select jsonb_build_object('source', 'code', 'packId', c.pack_id, 'version', c.version, 'facts', c.facts,
                                 'publishedAt', (select cur.published_at from cur), 'publishedBy', (select cur.published_by from cur),
                                 'kind', (select cur.kind from cur))
         from code c)),
    -- Roll back returns to what was in effect before the newest publication: an earlier one, or
    -- the code default; nothing when the code default is in effect and nothing came before it.
    'rollbackTo', case
      when exists (select 1 from prev) then (select jsonb_build_object('publicationId', prev.id, 'packId', prev.pack_id,
                                                      'source', case when prev.pack_id is null then 'code' else 'operator' end,
                                                      'version', coalesce(prev.version, (select c.version from code c)))
                                               from prev)
      when exists (select 1 from cur where cur.pack_id is not null)
        then jsonb_build_object('publicationId', null, 'packId', null, 'source', 'code',
                                'version', (select c.version from code c))
      else null end,
    'history', coalesce((select jsonb_agg(jsonb_build_object('id', pubs.id, 'kind', pubs.kind, 'packId', pubs.pack_id,
                                                             'version', coalesce(pubs.version, 'code default'),
                                                             'unchecked', coalesce(to_jsonb(pubs.unchecked_steps), '[]'::jsonb),
                                                             'publishedAt', pubs.published_at, 'publishedBy', pubs.published_by)
                                          order by pubs.id desc)
                           from pubs where pubs.n <= 20), '[]'::jsonb))
$function$;

CREATE OR REPLACE FUNCTION public.admin_publish_pack (
  p_platform  text,
  p_pack_id   uuid,
  p_by        uuid,
  p_unchecked text[] DEFAULT NULL::text[]
)
  RETURNS text
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  pack record;
  tried record;
  skipped text[];
begin
  select p.* into pack from public.platform_packs p
   where p.id = p_pack_id and p.platform = p_platform and p.source = 'operator';
  if pack.id is null then
    return 'not_found';
  end if;
  -- Only the newest try of this very pack counts, and it must have passed.
  select r.status, r.steps into tried from public.platform_canary_runs r
   where r.pack_id = pack.id and r.trigger = 'try' order by r.created_at desc limit 1;
  if tried.status is null then
    return 'not_tried';
  elsif tried.status in ('queued', 'running') then
    return 'trying';
  elsif tried.status <> 'passed' then
    return 'failed';
  end if;
  -- A skipped step checked nothing: the pack goes out unchecked there only when the operator named
  -- exactly those steps (a confirmation given for another try's skips does not carry over).
  skipped := array(select distinct s ->> 'step' from jsonb_array_elements(tried.steps) s
                    where s ->> 'status' = 'skipped' order by 1);
  if cardinality(skipped) > 0
     and skipped is distinct from array(select distinct u from unnest(p_unchecked) u order by 1) then
    return 'unchecked';
  end if;
  if exists (select 1 from internal.published_pack(p_platform) cur where cur.pack_id = pack.id) then
    return 'current';
  end if;
  -- A version names one set of facts: another pack published (or a code default) under it with other facts.
  if exists (select 1 from public.platform_packs other
              where other.platform = p_platform and other.version = pack.version and other.facts <> pack.facts
                and (other.source = 'code'
                     or exists (select 1 from public.platform_pack_publications pub where pub.pack_id = other.id))) then
    return 'version_taken';
  end if;
  insert into public.platform_pack_publications (platform, pack_id, kind, published_by, previous_publication_id, unchecked_steps)
  values (p_platform, pack.id, 'publish', p_by, (select cur.publication_id from internal.published_pack(p_platform) cur),
          nullif(skipped, '{}'));
  -- Check the published pack at once rather than at the next scheduled run: it may resume what is paused.
  perform internal.queue_canary_run(p_platform, 'publish', null, p_by);
  return 'published';
end
$function$;

REVOKE ALL ON FUNCTION "public"."admin_publish_pack"(text, uuid, uuid, text[]) FROM PUBLIC, "anon", "authenticated";

COMMENT ON COLUMN "public"."platform_pack_publications"."unchecked_steps" IS 'Steps the pack''s canary try skipped (nothing to check) that the publishing operator confirmed by name; null when every step ran.';

COMMENT ON FUNCTION "public"."admin_publish_pack"(text, uuid, uuid, text[]) IS 'Publishes an operator pack whose newest canary try passed with every step run, or whose skipped steps the operator named in p_unchecked (recorded): not_found, not_tried, trying, failed, unchecked, current, version_taken or published.';

REVOKE ALL ON FUNCTION "public"."admin_publish_pack"(text, uuid, uuid, text[]) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."admin_publish_pack"(text, uuid, uuid, text[]) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."admin_publish_pack"(text, uuid, uuid, text[]) TO "service_role";
