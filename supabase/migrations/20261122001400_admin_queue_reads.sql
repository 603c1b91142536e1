-- The admin tab's Queues and Retries views over pg-boss, for admins (app_metadata.role = admin) and
-- the service role only: the job tables are not exposed by the data API, so these functions are the
-- one path to them. Retry and delete do exactly what pg-boss's retry() and deleteJob() do.

-- RPCs -----------------------------------------------------------------------------------------

create or replace function internal.assert_admin()
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if not (internal.is_admin() or coalesce((select auth.role()), '') = 'service_role') then
    raise exception 'Access denied - admin privileges required' using errcode = '42501';
  end if;
end
$$;
comment on function internal.assert_admin() is 'Raises the spec''s 403 text unless the caller is an admin or the service role.';

create or replace function public.admin_queue_overview()
returns table (name text, paused boolean, pending bigint, active bigint, completed bigint, failed bigint,
               retrying bigint, rate_per_minute numeric)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform internal.assert_admin();
  return query
    select q.name,
           exists (select 1 from public.paused_queues p where p.name = q.name),
           count(j.id) filter (where j.state = 'created'),
           count(j.id) filter (where j.state = 'active'),
           count(j.id) filter (where j.state = 'completed'),
           count(j.id) filter (where j.state = 'failed'),
           count(j.id) filter (where j.state = 'retry'),
           round(count(j.id) filter (where j.state = 'completed' and j.completed_on > now() - interval '1 hour') / 60.0, 2)
      from pgboss.queue q
      left join pgboss.job j on j.name = q.name
     where q.name not like '\_\_pgboss%'
     group by q.name
     order by q.name;
end
$$;
comment on function public.admin_queue_overview() is
  'Admin Queues tab: per queue, paused or not, jobs by state (pending = created, retrying = retry) and completions per minute over the last hour.';

create or replace function public.admin_failed_jobs(p_limit integer default 100)
returns table (id uuid, job_type text, queue text, failed_at timestamptz, attempts integer, max_attempts integer,
               error text, data jsonb)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform internal.assert_admin();
  return query
    select j.id, j.name, j.name, j.completed_on, j.retry_count, j.retry_limit,
           coalesce(j.output ->> 'message', j.output -> 'value' ->> 'message', j.output::text), j.data
      from pgboss.job j
     where j.state = 'failed'
     order by j.completed_on desc nulls last
     limit least(greatest(coalesce(p_limit, 100), 1), 500);
end
$$;
comment on function public.admin_failed_jobs(integer) is 'Admin Retries tab: failed jobs, newest first (attempts = retry_count, max = retry_limit).';

create or replace function public.admin_retry_job(p_queue text, p_job_id uuid)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform internal.assert_admin();
  -- As pg-boss's retry(): a failed job goes back to retry with one more attempt allowed.
  update pgboss.job j set state = 'retry', retry_limit = j.retry_limit + 1
   where j.name = p_queue and j.id = p_job_id and j.state = 'failed';
  return found;
end
$$;
comment on function public.admin_retry_job(text, uuid) is 'Admin Retry button: requeues a failed job (pg-boss retry()). False if it was not failed.';

create or replace function public.admin_delete_job(p_queue text, p_job_id uuid)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform internal.assert_admin();
  delete from pgboss.job j where j.name = p_queue and j.id = p_job_id;
  return found;
end
$$;
comment on function public.admin_delete_job(text, uuid) is 'Admin Delete button: removes a job (pg-boss deleteJob()).';

-- Grants ---------------------------------------------------------------------------------------

revoke execute on all functions in schema internal from public;
revoke execute on function public.admin_queue_overview(), public.admin_failed_jobs(integer),
  public.admin_retry_job(text, uuid), public.admin_delete_job(text, uuid) from public, anon;
grant execute on function internal.assert_admin() to authenticated, service_role;
grant execute on function public.admin_queue_overview(), public.admin_failed_jobs(integer),
  public.admin_retry_job(text, uuid), public.admin_delete_job(text, uuid) to authenticated, service_role;
