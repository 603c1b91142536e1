-- Customer-facing RPCs answered "not found" and "wrong state" with SQLSTATEs P0002 and 55000.
-- PostgREST (and so hosted Supabase's /rest/v1/rpc/*) turns both classes into HTTP 500, so a
-- customer calling e.g. rpc/campaign_stats with an id that is not theirs got a server error instead
-- of a 404 (found by tests/reliability/isolation-data-api.test.ts). PostgREST maps SQLSTATE
-- 'PTxyz' to HTTP status xyz, so these errors now use PT404 and PT409; the messages are unchanged
-- and the functions' `_shared/db-errors.ts` maps the new codes the same way as the old ones.
--
-- The bodies are rewritten from the catalog rather than copied here, so this migration cannot
-- undo a change another migration made to one of them. New functions should raise PT404 / PT409
-- (or P0001 / 22023 for bad input) themselves.
do $$
declare
  f record;
  definition text;
begin
  for f in
    select p.oid
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname in ('public', 'internal') and p.prokind = 'f'
       and (p.prosrc like '%errcode = ''P0002''%' or p.prosrc like '%errcode = ''55000''%')
  loop
    definition := pg_get_functiondef(f.oid);
    definition := replace(definition, 'errcode = ''P0002''', 'errcode = ''PT404''');
    definition := replace(definition, 'errcode = ''55000''', 'errcode = ''PT409''');
    execute definition;
  end loop;
end
$$;
