-- What the `api` edge function does in one transaction each, so the plan limit, the encrypted
-- credentials and the job queue never disagree with the rows they belong to:
--   create_social_account      (service role) the plan-limit check under a lock on the customer's
--                              profile row, the account, its credentials and an account.test job:
--                              all or nothing, so two parallel creates on a 1-account plan give one
--   pause_campaign, delete_campaign, start_scraping_campaign, pause_scraping_campaign,
--   delete_scraping_campaign, delete_social_account
--                              (the caller's own rows) change the row and cancel or remove its
--                              waiting pg-boss jobs in the same transaction
--   account_daily_usage        (the caller) DMs sent and left today per account under every cap
--   campaign_lead_counts       (the caller) leads per DM campaign, for the campaign cards
-- Errors use SQLSTATEs the function maps to HTTP: P0002 not found (404), 55000 wrong state (409),
-- 23505 duplicate (409), 22023 bad value (400), P0001 with hint 'account_limit' (422).

-- Helper functions -----------------------------------------------------------------------------

create or replace function internal.drop_waiting_jobs(p_queues text[], p_field text, p_ids uuid[], p_remove boolean)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  affected integer;
begin
  -- Only jobs no runner holds yet ('created', 'retry'); a running job re-checks its row itself.
  if p_remove then
    delete from pgboss.job j
     where j.name = any (p_queues) and j.state in ('created', 'retry')
       and j.data ->> p_field = any (p_ids::text[]);
  else
    update pgboss.job j
       set state = 'cancelled', completed_on = now()
     where j.name = any (p_queues) and j.state in ('created', 'retry')
       and j.data ->> p_field = any (p_ids::text[]);
  end if;
  get diagnostics affected = row_count;
  return affected;
end
$$;
comment on function internal.drop_waiting_jobs(text[], text, uuid[], boolean) is
  'Cancels (or, with p_remove, deletes) the waiting jobs of those queues whose data names one of p_ids under p_field. Active jobs are left to finish: they re-check their row.';

-- RPCs -----------------------------------------------------------------------------------------

create or replace function public.create_social_account(
  p_user_id uuid,
  p_platform text,
  p_username text,
  p_proxy_url text,
  p_credentials_key_id text,
  p_credentials text,
  p_has_chat_passcode boolean default false
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target public.platforms;
  allowed integer;
  plan text;
  billing_status text;
  current_count integer;
  account public.social_accounts;
  job_id uuid;
begin
  select * into target from public.platforms p where p.name = p_platform;
  if target.id is null or not target.is_active or target.coming_soon then
    raise exception 'This platform cannot be connected yet' using errcode = '22023';
  end if;
  if p_credentials is null or split_part(p_credentials, ':', 1) is distinct from p_credentials_key_id then
    raise exception 'Credentials must be sealed with the named key' using errcode = '22023';
  end if;

  -- The insert trigger takes the same lock; taking it first makes the count below the one the insert
  -- sees, so concurrent creates for one customer queue up and only those within the plan succeed.
  perform 1 from public.user_profiles p where p.id = p_user_id for update;
  if not found then
    raise exception 'User not authenticated' using errcode = 'P0002';
  end if;
  select l.account_limit, l.plan_type, l.subscription_status into allowed, plan, billing_status
    from internal.account_limit(p_user_id) l;
  select count(*) into current_count from public.social_accounts a where a.user_id = p_user_id;
  if current_count >= allowed then
    raise exception '%', case
        when plan <> 'free' then format('Account limit reached. You have %s/%s accounts.', current_count, allowed)
        when billing_status in ('past_due', 'canceled', 'incomplete') then 'Subscription is not active'
        else 'You are currently limited to 1 social media account. Upgrade your plan to add more accounts.'
      end
      using errcode = 'P0001', hint = 'account_limit';
  end if;

  begin
    insert into public.social_accounts (user_id, platform_id, username, proxy_url, has_chat_passcode, status)
    values (p_user_id, target.id, p_username, nullif(p_proxy_url, ''), coalesce(p_has_chat_passcode, false), 'testing')
    returning * into account;
  exception
    when unique_violation then
      raise exception 'This account is already connected' using errcode = '23505';
  end;
  insert into public.social_account_credentials (account_id, key_id, ciphertext)
  values (account.id, p_credentials_key_id, p_credentials);
  job_id := internal.enqueue_job('account.test', jsonb_build_object('accountId', account.id), 'account:' || account.id);

  return to_jsonb(account) || jsonb_build_object('test_job_id', job_id);
end
$$;
comment on function public.create_social_account(uuid, text, text, text, text, text, boolean) is
  'Service role only (the api function, after it authenticated the caller and encrypted the credentials): checks the plan limit under a lock on the profile, inserts the account (status testing) and its credentials, and queues an account.test job, in one transaction.';

create or replace function public.pause_campaign(p_campaign_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  campaign public.campaigns;
begin
  select * into campaign from public.campaigns c
   where c.id = p_campaign_id and c.user_id = (select auth.uid())
   for update;
  if campaign.id is null then
    raise exception 'Campaign not found' using errcode = 'P0002';
  end if;
  if campaign.status in ('queued', 'running', 'active') then
    update public.campaigns c set status = 'paused' where c.id = campaign.id returning * into campaign;
  elsif campaign.status <> 'paused' then
    raise exception 'Only a running campaign can be paused (this one is %)', campaign.status using errcode = '55000';
  end if;
  perform internal.drop_waiting_jobs(array['campaign.tick'], 'campaignId', array[campaign.id], false);
  return to_jsonb(campaign);
end
$$;
comment on function public.pause_campaign(uuid) is
  'Pauses one of the caller''s DM campaigns and cancels its waiting campaign.tick jobs in the same transaction (pausing a paused campaign changes nothing).';

create or replace function public.delete_campaign(p_campaign_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_campaign_id uuid;
begin
  select c.id into v_campaign_id from public.campaigns c
   where c.id = p_campaign_id and c.user_id = (select auth.uid())
   for update;
  if v_campaign_id is null then
    raise exception 'Campaign not found' using errcode = 'P0002';
  end if;
  perform internal.drop_waiting_jobs(array['campaign.tick'], 'campaignId', array[v_campaign_id], true);
  delete from public.campaigns c where c.id = v_campaign_id;
  return jsonb_build_object('id', v_campaign_id, 'deleted', true);
end
$$;
comment on function public.delete_campaign(uuid) is
  'Deletes one of the caller''s DM campaigns (its leads and logs go with it) and removes its waiting jobs.';

create or replace function public.start_scraping_campaign(p_scraping_campaign_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  campaign public.scraping_campaigns;
  account_ready boolean;
  job_id uuid;
begin
  select * into campaign from public.scraping_campaigns s
   where s.id = p_scraping_campaign_id and s.user_id = (select auth.uid())
   for update;
  if campaign.id is null then
    raise exception 'Scraping campaign not found' using errcode = 'P0002';
  end if;
  if campaign.status = 'completed' then
    raise exception 'This scraping campaign has already completed' using errcode = '55000';
  end if;
  if campaign.account_id is null then
    raise exception 'This scraping campaign''s account was removed: create a new campaign with another account'
      using errcode = '55000';
  end if;
  if campaign.status in ('pending', 'paused') then
    update public.scraping_campaigns s set status = 'running' where s.id = campaign.id returning * into campaign;
  end if;
  -- The first run starts now rather than at the next scheduler minute; an account still being tested
  -- is left to the scheduler, which queues runs only for active accounts.
  select a.status = 'active' into account_ready from public.social_accounts a where a.id = campaign.account_id;
  if account_ready then
    job_id := internal.enqueue_job('scrape.run', jsonb_build_object('scrapingCampaignId', campaign.id),
                                   'scraping:' || campaign.id);
    if job_id is not null then
      update public.scraping_campaigns s set next_run_at = internal.now() + interval '30 minutes'
       where s.id = campaign.id returning * into campaign;
    end if;
  end if;
  return to_jsonb(campaign) || jsonb_build_object('run_job_id', job_id);
end
$$;
comment on function public.start_scraping_campaign(uuid) is
  'Starts (or resumes) one of the caller''s scraping campaigns and queues its first scrape.run job at once when its account is active.';

create or replace function public.pause_scraping_campaign(p_scraping_campaign_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  campaign public.scraping_campaigns;
begin
  select * into campaign from public.scraping_campaigns s
   where s.id = p_scraping_campaign_id and s.user_id = (select auth.uid())
   for update;
  if campaign.id is null then
    raise exception 'Scraping campaign not found' using errcode = 'P0002';
  end if;
  if campaign.status = 'running' then
    update public.scraping_campaigns s set status = 'paused' where s.id = campaign.id returning * into campaign;
  elsif campaign.status <> 'paused' then
    raise exception 'Only a running scraping campaign can be paused (this one is %)', campaign.status
      using errcode = '55000';
  end if;
  perform internal.drop_waiting_jobs(array['scrape.run'], 'scrapingCampaignId', array[campaign.id], false);
  return to_jsonb(campaign);
end
$$;
comment on function public.pause_scraping_campaign(uuid) is
  'Pauses one of the caller''s scraping campaigns and cancels its waiting scrape.run jobs in the same transaction.';

create or replace function public.delete_scraping_campaign(p_scraping_campaign_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_campaign_id uuid;
  v_dm_campaign_name text;
begin
  select s.id into v_campaign_id from public.scraping_campaigns s
   where s.id = p_scraping_campaign_id and s.user_id = (select auth.uid())
   for update;
  if v_campaign_id is null then
    raise exception 'Scraping campaign not found' using errcode = 'P0002';
  end if;
  -- A launched DM campaign keeps its lead source (the data model refuses to change it).
  select c.name into v_dm_campaign_name from public.campaigns c
   where c.scraping_campaign_id = v_campaign_id and c.status <> 'draft'
   order by c.created_at limit 1;
  if v_dm_campaign_name is not null then
    raise exception 'This scraping campaign is the lead source of the DM campaign "%": delete that campaign first',
      v_dm_campaign_name using errcode = '55000';
  end if;
  perform internal.drop_waiting_jobs(array['scrape.run'], 'scrapingCampaignId', array[v_campaign_id], true);
  delete from public.scraping_campaigns s where s.id = v_campaign_id;
  return jsonb_build_object('id', v_campaign_id, 'deleted', true);
end
$$;
comment on function public.delete_scraping_campaign(uuid) is
  'Deletes one of the caller''s scraping campaigns (its leads and lead list go with it) and removes its waiting jobs; refused while a launched DM campaign uses it as its lead source.';

create or replace function public.delete_social_account(p_account_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_account_id uuid;
  scraping_ids uuid[];
begin
  select a.id into v_account_id from public.social_accounts a
   where a.id = p_account_id and a.user_id = (select auth.uid())
   for update;
  if v_account_id is null then
    raise exception 'Account not found' using errcode = 'P0002';
  end if;
  select coalesce(array_agg(s.id), '{}') into scraping_ids
    from public.scraping_campaigns s where s.account_id = v_account_id;
  perform internal.drop_waiting_jobs(array['account.test', 'inbox.sync', 'warmup.step', 'campaign.tick'],
                                     'accountId', array[v_account_id], true);
  perform internal.drop_waiting_jobs(array['scrape.run'], 'scrapingCampaignId', scraping_ids, true);
  -- Scraping campaigns lose their account (set null): stop the running ones with a reason. DM
  -- campaigns lose it too; the scheduler stops those and tells the customer.
  update public.scraping_campaigns s
     set status = 'paused', error_message = 'The campaign''s account was removed'
   where s.id = any (scraping_ids) and s.status = 'running';
  delete from public.social_accounts a where a.id = v_account_id;
  return jsonb_build_object('id', v_account_id, 'deleted', true);
end
$$;
comment on function public.delete_social_account(uuid) is
  'Deletes one of the caller''s social accounts with its credentials, removes every waiting job for it, and pauses its running scraping campaigns.';

create or replace function public.account_daily_usage()
returns table (
  account_id uuid,
  platform text,
  username text,
  status text,
  timezone text,
  local_day date,
  sent_today integer,
  account_limit integer,
  warmup_limit integer,
  platform_limit integer,
  campaign_limit integer,
  sending_campaigns integer,
  daily_cap integer,
  remaining_today integer
)
language sql
stable
set search_path = ''
as $$
  with accounts as (
    select a.*, p.name as platform_name, p.daily_message_ceiling,
           pg_catalog.timezone(a.timezone, internal.now())::date as today
      from public.social_accounts a
      join public.platforms p on p.id = a.platform_id
     where a.user_id = (select auth.uid())
  ), campaigns as (
    select c.account_id,
           sum(c.daily_message_limit)::integer as total_limit,
           sum(greatest(0, c.daily_message_limit
             - case when c.sent_today_on = pg_catalog.timezone(c.schedule ->> 'timezone', internal.now())::date
                    then c.messages_sent_today else 0 end))::integer as left_today,
           count(*)::integer as sending
      from public.campaigns c
     where c.user_id = (select auth.uid()) and c.status in ('queued', 'running', 'active')
     group by c.account_id
  ), figures as (
    select a.id, a.platform_name, a.username, a.status, a.timezone, a.today,
           case when a.sent_today_on = a.today then a.messages_sent_today else 0 end as sent,
           a.daily_message_limit, internal.warmup_daily_limit(a.warmup_phase) as warmup,
           a.daily_message_ceiling, c.total_limit, c.left_today, coalesce(c.sending, 0) as sending,
           a.created_at
      from accounts a left join campaigns c on c.account_id = a.id
  )
  -- least() ignores nulls: a warmed-up account has no warm-up cap, an account without a sending
  -- campaign no campaign cap.
  select f.id, f.platform_name, f.username, f.status, f.timezone, f.today, f.sent,
         f.daily_message_limit, f.warmup, f.daily_message_ceiling, f.total_limit, f.sending,
         least(f.daily_message_limit, f.warmup, f.daily_message_ceiling, f.total_limit),
         greatest(0, least(least(f.daily_message_limit, f.warmup, f.daily_message_ceiling) - f.sent, f.left_today))
    from figures f
   order by f.created_at desc
$$;
comment on function public.account_daily_usage() is
  'Per account of the caller: DMs sent today (account time zone), each cap (account limit, warm-up, platform 450, sum of sending campaigns'' daily limits), daily_cap = the lowest, remaining_today = what the caps still allow today.';

create or replace function public.campaign_lead_counts()
returns table (campaign_id uuid, leads bigint)
language sql
stable
set search_path = ''
as $$
  select l.campaign_id, count(*) from public.campaign_leads l
   where l.user_id = (select auth.uid())
   group by l.campaign_id
$$;
comment on function public.campaign_lead_counts() is
  'How many leads each of the caller''s DM campaigns has (the campaign cards'' Total Leads), in one query.';

-- Grants ---------------------------------------------------------------------------------------

revoke execute on all functions in schema internal from public;
revoke execute on function public.create_social_account(uuid, text, text, text, text, text, boolean),
  public.pause_campaign(uuid), public.delete_campaign(uuid), public.start_scraping_campaign(uuid),
  public.pause_scraping_campaign(uuid), public.delete_scraping_campaign(uuid), public.delete_social_account(uuid),
  public.account_daily_usage(), public.campaign_lead_counts() from public, anon, authenticated;
grant execute on function public.create_social_account(uuid, text, text, text, text, text, boolean) to service_role;
grant execute on function public.pause_campaign(uuid), public.delete_campaign(uuid), public.start_scraping_campaign(uuid),
  public.pause_scraping_campaign(uuid), public.delete_scraping_campaign(uuid), public.delete_social_account(uuid),
  public.account_daily_usage(), public.campaign_lead_counts() to authenticated;
grant execute on function internal.warmup_daily_limit(integer) to authenticated;
