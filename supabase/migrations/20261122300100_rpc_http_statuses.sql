-- Customer-facing RPCs answered "not found" and "wrong state" with SQLSTATEs P0002 and 55000.
-- PostgREST (and so hosted Supabase's /rest/v1/rpc/*) turns both classes into HTTP 500, so a
-- customer calling e.g. rpc/campaign_stats with an id that is not theirs got a server error instead
-- of a 404 (found by tests/reliability/isolation-data-api.test.ts). PostgREST maps SQLSTATE
-- 'PTxyz' to HTTP status xyz, so these errors now use PT404 and PT409; the messages are unchanged
-- and the functions' `_shared/db-errors.ts` maps the new codes the same way as the old ones.
--
-- The ten functions below are the definitions the earlier migrations left, with only those
-- errcodes changed. (This file first rewrote the bodies from the catalog at migrate time, so the
-- text that ran was nowhere on disk; this spelled-out form builds the identical catalog, which the
-- schema check compares.) Their current text is in supabase/schemas/. New functions raise PT404 /
-- PT409 (or P0001 / 22023 for bad input) themselves.

create or replace function public.campaign_stats(p_campaign_id uuid, p_days integer default 30)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  campaign public.campaigns;
  tz text;
  days integer := least(greatest(coalesce(p_days, 30), 1), 365);
  leads jsonb;
  per_day jsonb;
begin
  select * into campaign from public.campaigns c where c.id = p_campaign_id and c.user_id = (select auth.uid());
  if campaign.id is null then
    raise exception 'Campaign not found' using errcode = 'PT404';
  end if;
  tz := campaign.schedule ->> 'timezone';

  select jsonb_build_object(
           'total', count(*),
           'pending', count(*) filter (where l.state = 'pending'),
           'contacted', count(*) filter (where l.last_sent_at is not null),
           'skipped', count(*) filter (where l.state = 'skipped'),
           'failed', count(*) filter (where l.state = 'failed'),
           'uncertain', count(*) filter (where l.state = 'uncertain'),
           'replied', count(*) filter (where l.replied_at is not null))
    into leads
    from public.campaign_leads l where l.campaign_id = campaign.id;

  with calendar as (
    select d::date as day
      from pg_catalog.generate_series(pg_catalog.timezone(tz, (select internal.now()))::date - (days - 1),
                                      pg_catalog.timezone(tz, (select internal.now()))::date, interval '1 day') d
  )
  select jsonb_agg(jsonb_build_object('date', c.day, 'sent', coalesce(s.sent, 0), 'failed', coalesce(s.failed, 0),
                                      'uncertain', coalesce(s.uncertain, 0), 'replies', coalesce(s.replies, 0)) order by c.day)
    into per_day
    from calendar c
    left join public.campaign_daily_stats s on s.campaign_id = campaign.id and s.day = c.day;

  return jsonb_build_object(
    'campaignId', campaign.id,
    'status', campaign.status,
    'totalLeads', leads -> 'total',
    'leads', leads,
    'messagesSent', campaign.messages_sent,
    'totalAttempts', campaign.total_attempts,
    'responses', campaign.response_count,
    'replyRate', case when campaign.messages_sent = 0 then 0
                      else round(campaign.response_count * 100.0 / campaign.messages_sent, 1) end,
    'deliveryRate', case when campaign.total_attempts = 0 then 0
                         else round(campaign.messages_sent * 100.0 / campaign.total_attempts, 1) end,
    'progress', case when (leads ->> 'total')::int = 0 then 0
                     else round((leads ->> 'contacted')::int * 100.0 / (leads ->> 'total')::int, 1) end,
    'sentToday', case when campaign.sent_today_on = pg_catalog.timezone(tz, (select internal.now()))::date
                      then campaign.messages_sent_today else 0 end,
    'daysOff', (select coalesce(jsonb_agg(d), '[]'::jsonb) from public.campaign_days_off(campaign.id, null, 14) d),
    'perDay', per_day);
end
$$;

create or replace function public.create_social_account(p_user_id uuid, p_platform text, p_username text, p_proxy_url text, p_credentials_key_id text, p_credentials text, p_has_chat_passcode boolean default false)
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
    raise exception 'User not authenticated' using errcode = 'PT404';
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
    raise exception 'Campaign not found' using errcode = 'PT404';
  end if;
  perform internal.drop_waiting_jobs(array['campaign.tick'], 'campaignId', array[v_campaign_id], true);
  delete from public.campaigns c where c.id = v_campaign_id;
  return jsonb_build_object('id', v_campaign_id, 'deleted', true);
end
$$;

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
    raise exception 'Scraping campaign not found' using errcode = 'PT404';
  end if;
  -- A launched DM campaign keeps its lead source (the data model refuses to change it).
  select c.name into v_dm_campaign_name from public.campaigns c
   where c.scraping_campaign_id = v_campaign_id and c.status <> 'draft'
   order by c.created_at limit 1;
  if v_dm_campaign_name is not null then
    raise exception 'This scraping campaign is the lead source of the DM campaign "%": delete that campaign first',
      v_dm_campaign_name using errcode = 'PT409';
  end if;
  perform internal.drop_waiting_jobs(array['scrape.run'], 'scrapingCampaignId', array[v_campaign_id], true);
  delete from public.scraping_campaigns s where s.id = v_campaign_id;
  return jsonb_build_object('id', v_campaign_id, 'deleted', true);
end
$$;

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
    raise exception 'Account not found' using errcode = 'PT404';
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
    raise exception 'Campaign not found' using errcode = 'PT404';
  end if;
  if campaign.status in ('queued', 'running', 'active') then
    update public.campaigns c set status = 'paused' where c.id = campaign.id returning * into campaign;
  elsif campaign.status <> 'paused' then
    raise exception 'Only a running campaign can be paused (this one is %)', campaign.status using errcode = 'PT409';
  end if;
  perform internal.drop_waiting_jobs(array['campaign.tick'], 'campaignId', array[campaign.id], false);
  return to_jsonb(campaign);
end
$$;

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
    raise exception 'Scraping campaign not found' using errcode = 'PT404';
  end if;
  if campaign.status = 'running' then
    update public.scraping_campaigns s set status = 'paused' where s.id = campaign.id returning * into campaign;
  elsif campaign.status <> 'paused' then
    raise exception 'Only a running scraping campaign can be paused (this one is %)', campaign.status
      using errcode = 'PT409';
  end if;
  perform internal.drop_waiting_jobs(array['scrape.run'], 'scrapingCampaignId', array[campaign.id], false);
  return to_jsonb(campaign);
end
$$;

create or replace function public.request_account_test(p_account_id uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  job_id uuid;
begin
  if (select auth.role()) is distinct from 'service_role'
     and not exists (select 1 from public.social_accounts a where a.id = p_account_id and a.user_id = (select auth.uid())) then
    raise exception 'Account not found' using errcode = 'PT404';
  end if;
  job_id := internal.enqueue_job('account.test', jsonb_build_object('accountId', p_account_id), 'account:' || p_account_id);
  return job_id;
end
$$;

create or replace function public.scraping_campaign_stats(p_scraping_campaign_id uuid)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  campaign public.scraping_campaigns;
  tz text;
  totals record;
  sources jsonb;
  per_day jsonb;
  recent jsonb;
begin
  select * into campaign from public.scraping_campaigns s
   where s.id = p_scraping_campaign_id and s.user_id = (select auth.uid());
  if campaign.id is null then
    raise exception 'Campaign not found' using errcode = 'PT404';
  end if;
  select p.timezone into tz from public.user_profiles p where p.id = campaign.user_id;
  tz := coalesce(tz, 'UTC');

  select count(*) as collected,
         count(*) filter (where not l.is_filtered) as valid,
         count(*) filter (where not l.is_filtered and coalesce(l.profile_data ->> 'bio', '') <> '') as valid_with_bio,
         min(l.collected_at) as first_at,
         max(l.collected_at) as last_at
    into totals
    from public.scraping_campaign_leads l where l.scraping_campaign_id = campaign.id;

  select coalesce(jsonb_agg(jsonb_build_object('type', x.source_type, 'value', x.source_value, 'count', x.n,
           'percentage', round(x.n * 100.0 / nullif(totals.collected, 0), 1)) order by x.n desc), '[]'::jsonb)
    into sources
    from (select l.source_type, l.source_value, count(*) as n
            from public.scraping_campaign_leads l where l.scraping_campaign_id = campaign.id
           group by 1, 2) x;

  select coalesce(jsonb_agg(jsonb_build_object('date', x.day, 'collected', x.collected, 'valid', x.valid) order by x.day), '[]'::jsonb)
    into per_day
    from (select pg_catalog.timezone(tz, l.collected_at)::date as day, count(*) as collected,
                 count(*) filter (where not l.is_filtered) as valid
            from public.scraping_campaign_leads l where l.scraping_campaign_id = campaign.id
           group by 1) x;

  select coalesce(jsonb_agg(jsonb_build_object('id', x.id, 'username', x.username, 'sourceType', x.source_type,
           'sourceValue', x.source_value, 'isFiltered', x.is_filtered, 'filterReason', x.filter_reason,
           'collectedAt', x.collected_at) order by x.collected_at desc), '[]'::jsonb)
    into recent
    from (select l.* from public.scraping_campaign_leads l where l.scraping_campaign_id = campaign.id
           order by l.collected_at desc limit 10) x;

  return jsonb_build_object(
    'scrapingCampaignId', campaign.id,
    'status', campaign.status,
    'targetCount', campaign.target_count,
    'collected', totals.collected,
    'valid', totals.valid,
    'filtered', totals.collected - totals.valid,
    'successRate', case when totals.collected = 0 then 0 else round(totals.valid * 100.0 / totals.collected, 1) end,
    'collectionRate', round(least(totals.valid, campaign.target_count) * 100.0 / campaign.target_count, 1),
    'qualityScore', case when totals.valid = 0 then 0 else round(totals.valid_with_bio * 100.0 / totals.valid, 1) end,
    'averagePerHour', case when totals.collected = 0 then 0
      else round(totals.collected / greatest(extract(epoch from totals.last_at - totals.first_at) / 3600.0, 1), 1) end,
    'firstCollectedAt', totals.first_at,
    'lastCollectedAt', totals.last_at,
    'sources', sources,
    'perDay', per_day,
    'recent', recent);
end
$$;

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
    raise exception 'Scraping campaign not found' using errcode = 'PT404';
  end if;
  if campaign.status = 'completed' then
    raise exception 'This scraping campaign has already completed' using errcode = 'PT409';
  end if;
  if campaign.account_id is null then
    raise exception 'This scraping campaign''s account was removed: create a new campaign with another account'
      using errcode = 'PT409';
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
