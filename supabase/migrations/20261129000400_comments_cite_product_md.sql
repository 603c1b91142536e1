-- Comments cite product.md, not the spec's sections or an issue number that a reader of the
-- repository cannot follow: two function bodies and one function comment, text only, no behaviour
-- change. Written by `npm run db:diff` (pg-delta) from supabase/schemas.

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION internal.account_limit (
  p_user_id uuid
)
  RETURNS TABLE (
    account_limit       integer,
    plan_type           text,
    subscription_status text
  )
  LANGUAGE sql
  STABLE
  SET search_path TO ''
  AS $function$
  -- product.md §6: without an active subscription 1 account (plan free); with one, accounts_purchased.
  select coalesce(s.accounts_purchased, 1), coalesce(s.plan_type, 'free'),
         coalesce((select x.status from public.subscriptions x where x.user_id = p_user_id
                    order by x.created_at desc limit 1), 'none')
    from (select 1) one
    left join lateral (
      select sum(x.accounts_purchased)::integer as accounts_purchased,
             (array_agg(x.plan_type order by x.created_at desc))[1] as plan_type
        from public.subscriptions x
       where x.user_id = p_user_id and x.status in ('active', 'trialing')
      having count(*) > 0
    ) s on true
$function$;

CREATE OR REPLACE FUNCTION public.delete_social_account (
  p_account_id uuid
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
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
  -- Its campaigns are paused, not stranded: each says why and what to do; the lists
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
$function$;

COMMENT ON FUNCTION "public"."check_account_limit"() IS 'product.md §6 account-limit check for the caller: {canAddAccount, currentCount, limit, planType, error}. Free plan (no active or trialing subscription) allows 1 account.';
