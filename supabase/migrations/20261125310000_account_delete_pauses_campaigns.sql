-- Deleting an account paused its running scraping campaigns with "The campaign's account was
-- removed" but left its DM campaigns to the scheduler, and both lists still offered Resume, which
-- then failed (issue 17). Now every campaign of the account that is not finished is paused (if it
-- was going) and says why and what to do, in the same transaction as the delete.
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
  -- Its campaigns are paused, not stranded (issue 17): each says why and what to do; the lists
  -- offer no Resume while a campaign has no account.
  update public.scraping_campaigns s
     set status = case when s.status = 'running' then 'paused' else s.status end,
         error_message = 'Its account was deleted. Create a new scraping campaign with another account.'
   where s.id = any (scraping_ids) and s.status <> 'completed';
  update public.campaigns c
     set status = case when c.status in ('queued', 'running', 'active') then 'paused' else c.status end,
         error_message = 'Its account was deleted. Choose another account in the campaign to send again.'
   where c.account_id = v_account_id and c.status not in ('completed', 'failed');
  delete from public.social_accounts a where a.id = v_account_id;
  return jsonb_build_object('id', v_account_id, 'deleted', true);
end
$$;
