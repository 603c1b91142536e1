-- Official accounts have no browser to warm up, written by `npm run db:diff` (pg-delta) from
-- supabase/schemas: an official X account now starts past warm-up, as an official Instagram one
-- does (the API's own limits pace it, and warm-up's lower daily caps held its campaigns back); the
-- scheduler queues no warm-up step for any official account; and it deletes OAuth connects that
-- expired unfinished, so their sealed app keys and code verifiers do not linger. Below by hand:
-- official X accounts connected before this move past warm-up too.

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION internal.enqueue_due_work()
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  t constant timestamptz := internal.now();
  -- Which minute of ten minutes (completion checks) this is.
  epoch_minute constant bigint := floor(pg_catalog.date_part('epoch', t) / 60)::bigint;
  unconfirmed integer;
  resumed integer;
  warmups_advanced integer;
  warmup_steps integer;
  ticks integer;
  scrape_runs integer;
  inbox_syncs integer;
  completed integer;
  orphaned integer;
  summary jsonb;
begin
  -- Sends the runner started but never confirmed within 30 minutes may have gone out: uncertain.
  update public.campaign_leads l
     set state = 'uncertain', last_error = coalesce(l.last_error, 'The send was not confirmed within 30 minutes')
   where l.state = 'sending' and l.updated_at < now() - interval '30 minutes';
  get diagnostics unconfirmed = row_count;

  -- Circuit breaker: a paused account sends again once its pause is over.
  update public.social_accounts a
     set status = 'active', paused_until = null
   where a.status = 'paused' and a.paused_until <= t;
  get diagnostics resumed = row_count;

  -- Local midnight: today's counter starts at zero (the caps already ignore a past day's count).
  update public.social_accounts a
     set messages_sent_today = 0, sent_today_on = pg_catalog.timezone(a.timezone, t)::date
   where a.messages_sent_today > 0 and a.sent_today_on < pg_catalog.timezone(a.timezone, t)::date;

  -- The first run of each local day per warming account: one warm-up phase per week since the
  -- warm-up started (the customer is told), and the day's warm-up step, queued to start in the
  -- local daytime (09:00 plus a per-account delay of up to 9 hours).
  with due as (
    select a.id, a.user_id, a.username, a.status, a.warmup_phase as old_phase, l.today,
           least(5, 1 + (l.today - pg_catalog.timezone(a.timezone, a.warmup_started_at)::date) / 7) as phase,
           pg_catalog.timezone(a.timezone, l.today + interval '9 hours'
             + mod(pg_catalog.hashtext(a.id::text || l.today::text)::bigint + 2147483648, 540) * interval '1 minute') as start_at
      from public.social_accounts a
     cross join lateral (select pg_catalog.timezone(a.timezone, t)::date as today) l
     -- an official account has no browser to warm up: the API's own limits pace it
     where a.warmup_phase < 5 and a.connection = 'browser' and a.warmup_step_on is distinct from l.today
  ), stepped as (
    update public.social_accounts a
       set warmup_step_on = d.today, warmup_phase = greatest(a.warmup_phase, d.phase)
      from due d
     where a.id = d.id
    returning a.id, a.user_id, a.username, a.status, d.old_phase, a.warmup_phase as phase, d.today, d.start_at
  ), notified as (
    insert into public.notifications (user_id, type, title, message, metadata)
    select s.user_id, 'warmup_phase_completed', 'Warm-up phase completed',
           case when s.phase = 5
             then format('@%s has finished warming up and can now send up to its full daily limit.', s.username)
             else format('@%s finished warm-up phase %s and can now send up to %s messages a day.',
                         s.username, s.old_phase, internal.warmup_daily_limit(s.phase)) end,
           jsonb_build_object('accountId', s.id, 'phase', s.phase)
      from stepped s
     where s.phase > s.old_phase
    returning 1
  ), queued as (
    select e.id
      from internal.enqueue_jobs('warmup.step', (
             select jsonb_agg(jsonb_build_object('data', jsonb_build_object('accountId', s.id),
                                                 'singletonKey', 'warmup:' || s.id || ':' || s.today,
                                                 'startAfter', now() + greatest(interval '0', s.start_at - t)))
               from stepped s
              where s.status = 'active' and s.phase < 5)) e
  )
  select (select count(*) from notified), (select count(*) from queued) into warmups_advanced, warmup_steps;

  -- Campaign ticks: one per account a minute, round-robin between its due campaigns (the one whose
  -- next send time passed first). A campaign with a tick still waiting or being worked gets none:
  -- the job is the lease. The runner sets next_action_at after each tick (its gap to the next send).
  with candidates as (
    select c.id, c.account_id, c.next_action_at
      from public.campaigns c
      join public.social_accounts a on a.id = c.account_id
      join public.platforms p on p.id = a.platform_id
     where c.status in ('queued', 'running', 'active')
       and coalesce(c.next_action_at, '-infinity'::timestamptz) <= t
       and a.status = 'active'
       and internal.campaign_window_open(c.id, c.schedule, t)
       and internal.campaign_sends_left_today(c, a, p, t) > 0
       and exists (select 1 from public.campaign_leads l where l.campaign_id = c.id and l.next_send_at <= t)
       -- Not while sending on the platform is paused after a site change (its leads stay due).
       and p.name not in (select pa.platform from public.platform_action_pauses pa where pa.action in ('send', 'session'))
       -- One hashed set of unfinished ticks, not a probe per campaign: cheap whatever the statistics say.
       and ('campaign:' || c.id) not in (select j.singleton_key from pgboss.job j
                                          where j.name = 'campaign.tick' and j.state < 'completed' and j.singleton_key is not null)
  ), chosen as (
    select distinct on (x.account_id) x.id, x.account_id
      from candidates x
     order by x.account_id, x.next_action_at nulls first, x.id
  ), queued as (
    select (e.data ->> 'campaignId')::uuid as campaign_id
      from internal.enqueue_jobs('campaign.tick', (
             select jsonb_agg(jsonb_build_object('data', jsonb_build_object('campaignId', ch.id, 'accountId', ch.account_id),
                                                 'singletonKey', 'campaign:' || ch.id))
               from chosen ch)) e
  ), started as (
    update public.campaigns c set status = 'running'
      from queued q
     where c.id = q.campaign_id and c.status = 'queued'
    returning 1
  )
  select count(*) into ticks from queued;

  -- Scraping runs, each leased for as long as the job may run; the runner sets the next run.
  with queued as (
    select (e.data ->> 'scrapingCampaignId')::uuid as scraping_campaign_id, e.expire_seconds
      from internal.enqueue_jobs('scrape.run', (
             select jsonb_agg(jsonb_build_object('data', jsonb_build_object('scrapingCampaignId', s.id),
                                                 'singletonKey', 'scraping:' || s.id))
               from public.scraping_campaigns s
               join public.social_accounts a on a.id = s.account_id
              where s.status = 'running' and (s.next_run_at is null or s.next_run_at <= t) and a.status = 'active'
                and a.platform_id not in (select p.id from public.platform_action_pauses pa join public.platforms p on p.name = pa.platform
                                           where pa.action in ('scrape', 'session')))) e
  )
  update public.scraping_campaigns s
     set next_run_at = t + q.expire_seconds * interval '1 second'
    from queued q
   where s.id = q.scraping_campaign_id;
  get diagnostics scrape_runs = row_count;

  -- Inbox syncs: every few minutes for an account in use, every half hour for an idle one
  -- (internal.inbox_syncs_due).
  with queued as (
    select e.id
      from internal.enqueue_jobs('inbox.sync', (
             select jsonb_agg(jsonb_build_object('data', jsonb_build_object('accountId', d.account_id),
                                                 'singletonKey', 'inbox:' || d.account_id))
               from internal.inbox_syncs_due(t) d
               join public.social_accounts a on a.id = d.account_id
              where a.platform_id not in (select p.id from public.platform_action_pauses pa join public.platforms p on p.name = pa.platform
                                           where pa.action in ('inbox', 'session')))) e
  )
  select count(*) into inbox_syncs from queued;

  -- A running campaign whose account was removed cannot go on.
  with orphans as (
    update public.campaigns c
       set status = 'error', error_message = 'The campaign''s account was removed'
     where c.status in ('queued', 'running', 'active') and c.account_id is null
    returning c.id, c.user_id, c.name
  ), notified as (
    insert into public.notifications (user_id, type, title, message, metadata)
    select o.user_id, 'campaign_failed', 'Campaign stopped', format('"%s" stopped because its account was removed.', o.name),
           jsonb_build_object('campaignId', o.id)
      from orphans o
    returning 1
  )
  select count(*) into orphaned from notified;

  -- Completed: nothing due now or later and nothing in flight. Each campaign is looked at in its
  -- own minute of ten, so a run probes a tenth of the running campaigns.
  with finished as (
    update public.campaigns c
       set status = 'completed'
     where c.status in ('queued', 'running', 'active')
       and mod(pg_catalog.hashtext(c.id::text)::bigint + 2147483648, 10) = mod(epoch_minute, 10)
       and not exists (select 1 from public.campaign_leads l where l.campaign_id = c.id and l.next_send_at is not null)
       and not exists (select 1 from public.campaign_leads l where l.campaign_id = c.id and l.state = 'sending')
    returning c.id, c.user_id, c.name, c.messages_sent
  ), notified as (
    insert into public.notifications (user_id, type, title, message, metadata)
    select f.user_id, 'campaign_completed', 'Campaign completed',
           format('"%s" has messaged all its leads (%s messages sent).', f.name, f.messages_sent),
           jsonb_build_object('campaignId', f.id)
      from finished f
    returning 1
  )
  select count(*) into completed from notified;

  -- OAuth connects started and never finished: their sealed app keys and code verifiers go once
  -- they can no longer be used (each on the clock it was stamped with)
  delete from public.x_oauth_requests r where r.expires_at <= now();
  delete from internal.instagram_oauth_states s where s.expires_at <= t;

  summary := jsonb_build_object('at', t, 'campaignTicks', ticks, 'scrapeRuns', scrape_runs, 'inboxSyncs', inbox_syncs,
    'warmupSteps', warmup_steps, 'warmupsAdvanced', warmups_advanced, 'accountsResumed', resumed,
    'sendsUnconfirmed', unconfirmed, 'campaignsCompleted', completed, 'campaignsOrphaned', orphaned);
  -- The admin Logs tab shows the minutes in which the scheduler did something.
  if ticks + scrape_runs + inbox_syncs + warmup_steps + warmups_advanced + resumed + unconfirmed + completed + orphaned > 0 then
    insert into public.system_logs (level, service, message, metadata)
    values ('info', 'scheduler',
            format('Queued %s campaign ticks, %s scraping runs, %s inbox syncs, %s warm-up steps', ticks, scrape_runs,
                   inbox_syncs, warmup_steps),
            summary);
  end if;
  return summary;
end
$function$;

CREATE OR REPLACE FUNCTION public.connect_official_x_account (
  p_user_id            uuid,
  p_username           text,
  p_platform_user_id   text,
  p_credentials_key_id text,
  p_credentials        text
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  target public.platforms;
  existing public.social_accounts;
  account public.social_accounts;
  allowed integer;
  plan text;
  billing_status text;
  current_count integer;
begin
  select * into target from public.platforms p where p.name = 'twitter';
  if target.id is null or not target.is_active or target.coming_soon then
    raise exception 'This platform cannot be connected yet' using errcode = '22023';
  end if;
  if p_credentials is null or split_part(p_credentials, ':', 1) is distinct from p_credentials_key_id then
    raise exception 'Credentials must be sealed with the named key' using errcode = '22023';
  end if;
  if p_platform_user_id !~ '^[0-9]{1,19}$' then
    raise exception 'X returned no user id' using errcode = '22023';
  end if;
  -- the same lock as create_social_account, so the limit below is the one an insert would see
  perform 1 from public.user_profiles p where p.id = p_user_id for update;
  if not found then
    raise exception 'User not authenticated' using errcode = 'PT404';
  end if;

  select * into existing from public.social_accounts a
   where a.user_id = p_user_id and a.platform_id = target.id
     and (a.platform_user_id = p_platform_user_id or lower(a.username) = lower(p_username))
   for update;
  if existing.id is not null then
    if existing.connection <> 'official' then
      raise exception 'This X account is already connected through the browser. Delete it first to connect it through the X API.'
        using errcode = '23505';
    end if;
    -- connecting again (new tokens, perhaps another developer app) revives the same account
    update public.social_accounts a
       set username = p_username, platform_user_id = p_platform_user_id, status = 'active', flag_reason = null,
           last_tested_at = now()
     where a.id = existing.id
     returning * into account;
    update public.social_account_credentials c
       set key_id = p_credentials_key_id, ciphertext = p_credentials, session_ciphertext = null
     where c.account_id = existing.id;
    return to_jsonb(account) || jsonb_build_object('reconnected', true);
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

  -- no warm-up: the API's own limits pace an official account, not a browser's
  insert into public.social_accounts (user_id, platform_id, username, platform_user_id, status, connection, last_tested_at, warmup_phase)
  values (p_user_id, target.id, p_username, p_platform_user_id, 'active', 'official', now(), 5)
  returning * into account;
  insert into public.social_account_credentials (account_id, key_id, ciphertext)
  values (account.id, p_credentials_key_id, p_credentials);
  return to_jsonb(account) || jsonb_build_object('reconnected', false);
end
$function$;

UPDATE public.social_accounts SET warmup_phase = 5 WHERE connection = 'official' AND warmup_phase < 5;
