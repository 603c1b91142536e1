-- A write to a view that joins several tables (public.lead_view) failed inside Postgres's rewriter
-- with SQLSTATE 55000, which PostgREST (and so hosted Supabase) answers with HTTP 500, before any
-- privilege check could refuse it (found by tests/reliability/fuzz-grammar.test.ts). An INSTEAD OF
-- trigger makes the rewriter accept the statement; then the missing INSERT/UPDATE/DELETE grant
-- refuses it (403), and should a grant ever be added, the trigger refuses it itself.
create or replace function internal.refuse_view_write()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception '% is read-only', tg_table_name using errcode = '42501';
end
$$;

revoke execute on function internal.refuse_view_write() from public;

comment on function internal.refuse_view_write() is
  'INSTEAD OF trigger for read-only views in public: a write is a 403, not a 500 from the rewriter.';

drop trigger if exists lead_view_read_only on public.lead_view;
create trigger lead_view_read_only
  instead of insert or update or delete on public.lead_view
  for each row execute function internal.refuse_view_write();
