-- The product's job queues, created exactly as pg-boss 10's createQueue(name, options) does (it calls
-- pgboss.create_queue with the options as JSON), and the runner's access to the queue tables.
-- pg-boss 10.4.2 accepts dots in queue names, so the names are the ones the code uses.
-- Every queue uses policy 'short': at most one waiting job per singleton key, so the scheduler can
-- enqueue every minute without piling up duplicates.
--   account.test   {accountId}            key account:<id>          tests a newly connected account
--   scrape.run     {scrapingCampaignId}   key scraping:<id>         collects the next page(s) of leads
--   campaign.tick  {campaignId, accountId} key campaign:<id>        sends the next due DM of a campaign
--   inbox.sync     {accountId}            key inbox:<id>            reads replies and message requests
--   warmup.step    {accountId}            key warmup:<id>:<date>    one day of warm-up activity

select pgboss.create_queue('account.test',
  json_build_object('policy', 'short', 'retryLimit', 1, 'retryDelay', 60, 'expireInSeconds', 600));
select pgboss.create_queue('scrape.run',
  json_build_object('policy', 'short', 'retryLimit', 2, 'retryDelay', 60, 'retryBackoff', true, 'expireInSeconds', 1800));
-- A tick is never retried by pg-boss: the scheduler queues the next one, and a send is never repeated blindly.
select pgboss.create_queue('campaign.tick',
  json_build_object('policy', 'short', 'retryLimit', 0, 'expireInSeconds', 900));
select pgboss.create_queue('inbox.sync',
  json_build_object('policy', 'short', 'retryLimit', 1, 'retryDelay', 120, 'expireInSeconds', 900));
select pgboss.create_queue('warmup.step',
  json_build_object('policy', 'short', 'retryLimit', 2, 'retryDelay', 600, 'retryBackoff', true, 'expireInSeconds', 1800));
-- pg-boss's own queue for boss.schedule(); created here because the runner may not create tables.
select pgboss.create_queue('__pgboss__send-it', json_build_object('policy', 'standard'));

-- The scheduler skips campaigns whose tick is still waiting or being worked; this index on the
-- campaign.tick partition (pg-boss names partitions by a hash) answers that per campaign.
do $$
declare
  tick_partition text := (select q.partition_name from pgboss.queue q where q.name = 'campaign.tick');
begin
  execute format('create index campaign_tick_unfinished_idx on pgboss.%I (singleton_key) where state < %L',
                 tick_partition, 'completed');
end
$$;

-- Grants ---------------------------------------------------------------------------------------

revoke execute on all functions in schema pgboss from public;
grant usage on schema pgboss to reachflow_runner;
grant select, insert, update, delete on all tables in schema pgboss to reachflow_runner;
