-- The Supabase platform layer, part 1b: pg_cron. Its own file because it can only be created in
-- the database named by cron.database_name: the schema check's second database (built from
-- supabase/schemas, where pg_cron's jobs do not live) gets every platform file but this one.
-- pg_cron, as hosted installs it: in pg_catalog (its tables in `cron`), created by the superuser.
-- On hosted, supautils runs `create extension pg_cron` for postgres as supabase_admin (a privileged
-- extension) and then grants postgres the cron schema; here the superuser creates it up front, so
-- a migration's `create extension if not exists pg_cron` finds it and does nothing.
create extension if not exists pg_cron with schema pg_catalog;
grant usage on schema cron to postgres with grant option;
grant all on all tables in schema cron to postgres with grant option;
grant all on all sequences in schema cron to postgres with grant option;
grant all on all functions in schema cron to postgres with grant option;
