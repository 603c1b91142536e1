-- The migrations' owner role (postgres) must be able to `set role reachflow_runner`: the database
-- tests act as the runner that way, and so may an operator checking what the runner can see.
-- 20261122000900 created the role as postgres but did not make postgres a member: a superuser
-- needs no membership, the non-superuser postgres of hosted Supabase does. On PostgreSQL 16+ a
-- role's creator gets only ADMIN, so the grant must ask for SET explicitly; that syntax does not
-- exist before 16, hence the check of the server version.
do $$
begin
  if current_setting('server_version_num')::int >= 160000 then
    execute 'grant reachflow_runner to postgres with set true';
  else
    execute 'grant reachflow_runner to postgres';
  end if;
end
$$;
