-- On hosted Supabase, migrations and `supabase test db` run as `postgres`, which is not a superuser:
-- SET ROLE reachflow_runner (the pgTAP files that check the runner's rights, and an operator
-- looking at what the runner sees) needs membership. PostgreSQL 16 split membership into ADMIN,
-- INHERIT and SET: there it must say SET TRUE, and INHERIT FALSE keeps postgres from quietly
-- gaining the runner's rights. Before 16, a plain grant is membership with SET. The statement is
-- chosen at run time so the same migration works on 15 (tested locally) and 17 (hosted).
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'reachflow_runner') then
    return;
  end if;
  if current_setting('server_version_num')::int >= 160000 then
    execute 'grant reachflow_runner to postgres with inherit false, set true';
  else
    execute 'grant reachflow_runner to postgres';
  end if;
end
$$;
