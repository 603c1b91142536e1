-- Admin Clear Logs called admin_clear_logs() through the Data API, whose sessions on hosted Supabase
-- load pg-safeupdate: its `delete from public.system_logs` without a WHERE clause failed there with
-- "DELETE requires a WHERE clause" (21000). Clearing every line is what the button means, so the
-- statement says so; pg-safeupdate's own documentation names an always-true condition as the way.
create or replace function public.admin_clear_logs()
returns bigint
language sql
security definer
set search_path = ''
as $$
  with cleared as (delete from public.system_logs where true returning 1)
  select count(*) from cleared
$$;
comment on function public.admin_clear_logs() is 'Admin Clear Logs: deletes every system log line; returns how many.';
