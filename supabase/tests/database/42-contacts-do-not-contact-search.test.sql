-- The do-not-contact search on a long list: a term longer than 100 characters is refused before
-- anything is read (70,000 characters over 5,000 rows took 6.9 s and four at once gave 500s), one
-- of 100 still searches, and the search's ILIKE is served by the trigram indexes on a 5,000-row list.
begin;
select plan(7);

select tests.create_supabase_user('dnc_search_owner');
select tests.create_supabase_user('dnc_search_other');
insert into public.do_not_contact (user_id, platform, target_username, reason, created_at)
select tests.get_supabase_uid('dnc_search_owner'), 'twitter', 'person_' || n,
       'Opted out by reply: "stop ' || md5(n::text) || '"', now() - n * interval '1 minute'
  from generate_series(1, 5000) n;
insert into public.do_not_contact (user_id, platform, target_username, reason)
values (tests.get_supabase_uid('dnc_search_owner'), 'instagram', 'needle.writes', 'Asked by e-mail'),
       (tests.get_supabase_uid('dnc_search_other'), 'instagram', 'needle.other', 'manual');
analyze public.do_not_contact;
-- a list that grew over time has had its GIN pending lists merged by autovacuum; 5,000 rows inserted
-- in this transaction sit in them, which the planner rightly prices as a scan
select gin_clean_pending_list('public.do_not_contact_username_search_idx'::regclass),
       gin_clean_pending_list('public.do_not_contact_reason_search_idx'::regclass);

select tests.authenticate_as('dnc_search_owner');

-- how long a call took, in milliseconds, and how it ended
create function pg_temp.timed(p_search text, out ms numeric, out outcome text) language plpgsql as $$
declare
  started timestamptz := clock_timestamp();
begin
  perform count(*) from public.do_not_contact_entries(p_search, null, 25, 0);
  outcome := 'answered';
  ms := extract(epoch from clock_timestamp() - started) * 1000;
exception when invalid_parameter_value then
  outcome := sqlerrm;
  ms := extract(epoch from clock_timestamp() - started) * 1000;
end $$;

select throws_ok(
  $$select * from public.do_not_contact_entries(repeat('a', 70000), null, 25, 0)$$, '22023',
  'Search for at most 100 characters.', 'a 70,000-character search is refused with a reason');
select ok((select ms < 1000 from pg_temp.timed(repeat('a', 70000))),
          '... at once: nothing is read for it (it took 6.9 s over 5,000 rows)');
select is((select outcome from pg_temp.timed(repeat('a', 101))), 'Search for at most 100 characters.',
          'one of 101 characters is refused');
select is((select outcome from pg_temp.timed('  ' || repeat('a', 100) || '  ')), 'answered',
          'one of 100 (spaces around it do not count) is searched');
select results_eq(
  $$select target_username, total from public.do_not_contact_entries('@needle', null, 25, 0)$$,
  $$values ('needle.writes', 1::bigint)$$, 'a search finds the caller''s entry and nobody else''s');

-- The function's search as the planner sees it with a term, as the function runs it (security
-- definer: as the table's owner, without the policies that keep a non-leakproof ILIKE off an index):
-- the trigram indexes, not a scan of the list.
select tests.clear_authentication();
set local role postgres;
create function pg_temp.search_plan(p_pattern text) returns text language plpgsql as $$
declare
  line text;
  plan text := '';
begin
  for line in execute format(
    'explain (costs off) select d.id from public.do_not_contact d
      where d.user_id = %2$L and (d.target_username ilike %1$L or d.reason ilike %1$L)',
    p_pattern, tests.get_supabase_uid('dnc_search_owner'))
  loop
    plan := plan || line || E'\n';
  end loop;
  return plan;
end $$;
select ok(pg_temp.search_plan('%needle%') ~ 'do_not_contact_username_search_idx(.|\n)*do_not_contact_reason_search_idx',
          'a search reads the trigram indexes of username and note on a 5,000-row list');
select ok(pg_temp.search_plan('%needle%') !~ 'Seq Scan on do_not_contact', '... and does not scan the list');

select * from finish();
rollback;
