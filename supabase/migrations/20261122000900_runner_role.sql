-- The runner's database role: it works jobs for every customer, so it sees all rows of the tables
-- it works (through explicit policies, not BYPASSRLS) and may change only the columns its jobs
-- change. It can read credentials (to decrypt them) and save a browser session, nothing more.
-- Created NOLOGIN; each environment gives it a password (`alter role reachflow_runner login password ...`).

do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'reachflow_runner') then
    create role reachflow_runner nologin noinherit;
  end if;
end
$$;

comment on role reachflow_runner is 'The Node runner: works pg-boss jobs (scraping, DMs, inbox, warm-up) for every customer.';

grant usage on schema public, internal to reachflow_runner;
-- internal.now() is the clock; the other two run inside the check constraints and guard triggers
-- of the rows the runner updates.
grant execute on function internal.now(), internal.is_client_role(), internal.is_valid_timezone(text) to reachflow_runner;

-- Grants ---------------------------------------------------------------------------------------

grant select on public.platforms, public.lead_lists, public.lead_list_members, public.user_profiles
  to reachflow_runner;

grant select on public.social_accounts to reachflow_runner;
grant update (status, trust_score, last_login_at, last_synced_at, last_tested_at, requests_pending,
  platform_user_id, flag_reason, paused_until, updated_at) on public.social_accounts to reachflow_runner;

grant select on public.social_account_credentials to reachflow_runner;
grant update (session_ciphertext, updated_at) on public.social_account_credentials to reachflow_runner;

grant select on public.scraping_campaigns to reachflow_runner;
grant update (status, error_message, progress, last_run_at, next_run_at, updated_at)
  on public.scraping_campaigns to reachflow_runner;
grant select, insert on public.scraping_campaign_leads to reachflow_runner;

grant select on public.campaigns to reachflow_runner;
grant update (status, error_message, next_action_at, updated_at) on public.campaigns to reachflow_runner;
grant select on public.campaign_leads to reachflow_runner;
grant update (state, skip_reason, current_step, next_send_at, last_sent_at, replied_at, reply_text, last_error, updated_at)
  on public.campaign_leads to reachflow_runner;
grant select, insert on public.dm_logs to reachflow_runner;
grant update (status, error) on public.dm_logs to reachflow_runner;
grant select, insert on public.contact_ledger, public.do_not_contact to reachflow_runner;

grant insert on public.notifications, public.system_logs to reachflow_runner;
grant select, insert, update, delete on public.runner_heartbeats to reachflow_runner;
grant select on public.runner_commands to reachflow_runner;
grant update (status, result, acknowledged_at, completed_at) on public.runner_commands to reachflow_runner;
grant select on public.paused_queues to reachflow_runner;

-- Policies -------------------------------------------------------------------------------------

create policy "The runner reads every platform" on public.platforms for select to reachflow_runner using (true);
create policy "The runner reads every profile" on public.user_profiles for select to reachflow_runner using (true);
create policy "The runner reads every lead list" on public.lead_lists for select to reachflow_runner using (true);
create policy "The runner reads every lead list member" on public.lead_list_members for select to reachflow_runner using (true);

create policy "The runner reads every social account" on public.social_accounts for select to reachflow_runner using (true);
create policy "The runner updates social accounts" on public.social_accounts for update to reachflow_runner using (true) with check (true);

create policy "The runner reads credentials" on public.social_account_credentials for select to reachflow_runner using (true);
create policy "The runner saves browser sessions" on public.social_account_credentials for update to reachflow_runner using (true) with check (true);

create policy "The runner reads scraping campaigns" on public.scraping_campaigns for select to reachflow_runner using (true);
create policy "The runner updates scraping campaigns" on public.scraping_campaigns for update to reachflow_runner using (true) with check (true);
create policy "The runner reads scraped leads" on public.scraping_campaign_leads for select to reachflow_runner using (true);
create policy "The runner adds scraped leads" on public.scraping_campaign_leads for insert to reachflow_runner with check (true);

create policy "The runner reads campaigns" on public.campaigns for select to reachflow_runner using (true);
create policy "The runner updates campaigns" on public.campaigns for update to reachflow_runner using (true) with check (true);
create policy "The runner reads campaign leads" on public.campaign_leads for select to reachflow_runner using (true);
create policy "The runner updates campaign leads" on public.campaign_leads for update to reachflow_runner using (true) with check (true);
create policy "The runner reads message logs" on public.dm_logs for select to reachflow_runner using (true);
create policy "The runner writes message logs" on public.dm_logs for insert to reachflow_runner with check (true);
create policy "The runner updates message logs" on public.dm_logs for update to reachflow_runner using (true) with check (true);
create policy "The runner reads the contact ledger" on public.contact_ledger for select to reachflow_runner using (true);
create policy "The runner claims contacts" on public.contact_ledger for insert to reachflow_runner with check (true);
create policy "The runner reads do-not-contact lists" on public.do_not_contact for select to reachflow_runner using (true);
create policy "The runner records opt-outs" on public.do_not_contact for insert to reachflow_runner with check (true);

create policy "The runner notifies customers" on public.notifications for insert to reachflow_runner with check (true);
create policy "The runner writes system logs" on public.system_logs for insert to reachflow_runner with check (true);
create policy "The runner reads heartbeats" on public.runner_heartbeats for select to reachflow_runner using (true);
create policy "The runner writes its heartbeat" on public.runner_heartbeats for insert to reachflow_runner with check (true);
create policy "The runner refreshes its heartbeat" on public.runner_heartbeats for update to reachflow_runner using (true) with check (true);
create policy "The runner removes its heartbeat" on public.runner_heartbeats for delete to reachflow_runner using (true);
create policy "The runner reads its commands" on public.runner_commands for select to reachflow_runner using (true);
create policy "The runner acknowledges commands" on public.runner_commands for update to reachflow_runner using (true) with check (true);
create policy "The runner reads paused queues" on public.paused_queues for select to reachflow_runner using (true);
