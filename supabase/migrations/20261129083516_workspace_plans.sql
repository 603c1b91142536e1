-- Workspace plans: the plan belongs to the workspace, not to the person who bought it. An agency
-- pays per client workspace, so the account limit counts the workspace's accounts against the
-- workspace's subscriptions (whichever member adds one), the workspace mirrors its plan and keeps
-- its own Stripe customer, a subscription is recorded under the workspace its checkout named, and
-- the scheduler sends nothing for a workspace without a plan. The free plan stays one per person:
-- their personal workspace sends without a plan, as it did. Below, by hand: every workspace's
-- mirror filled from the subscriptions it already has.

SET local check_function_bodies = off;

DROP FUNCTION "internal"."account_limit"(uuid);

ALTER TABLE "public"."workspaces"
  ADD COLUMN "stripe_customer_id" text;

ALTER TABLE "public"."workspaces"
  ADD COLUMN "subscription_status" text NOT NULL DEFAULT 'none'::text;

ALTER TABLE "public"."workspaces"
  ADD COLUMN "subscription_plan" text NOT NULL DEFAULT 'free'::text;

CREATE OR REPLACE FUNCTION internal.account_limit (
  p_workspace_id uuid
)
  RETURNS TABLE (
    account_limit       integer,
    plan_type           text,
    subscription_status text
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  -- product.md §6: without an active subscription 1 account (plan free); with one, accounts_purchased.
  -- The plan is the workspace's, whoever asks: a member who may not read its billing gets the same limit.
  select coalesce(s.accounts_purchased, 1), coalesce(s.plan_type, 'free'),
         coalesce((select x.status from public.subscriptions x where x.workspace_id = p_workspace_id
                    order by x.created_at desc limit 1), 'none')
    from (select 1) one
    left join lateral (
      select sum(x.accounts_purchased)::integer as accounts_purchased,
             (array_agg(x.plan_type order by x.created_at desc))[1] as plan_type
        from public.subscriptions x
       where x.workspace_id = p_workspace_id and x.status in ('active', 'trialing')
      having count(*) > 0
    ) s on true
$function$;

CREATE OR REPLACE FUNCTION internal.account_limit_refusal (
  p_user_id uuid
)
  RETURNS text
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  -- The account is created in the person's active workspace, so that workspace's plan decides.
  workspace uuid := internal.active_workspace_of(p_user_id);
  allowed integer;
  plan text;
  billing_status text;
  current_count integer;
begin
  select l.account_limit, l.plan_type, l.subscription_status into allowed, plan, billing_status
    from internal.account_limit(workspace) l;
  select count(*) into current_count from public.social_accounts a where a.workspace_id = workspace;
  if current_count < allowed then
    return null;
  end if;
  return case
    when plan <> 'free' then format('Account limit reached. You have %s/%s accounts.', current_count, allowed)
    when billing_status in ('past_due', 'canceled', 'incomplete') then 'Subscription is not active'
    else 'You are currently limited to 1 social media account. Upgrade your plan to add more accounts.'
  end;
end
$function$;

CREATE OR REPLACE FUNCTION internal.enforce_account_limit()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  -- This trigger runs before the one that fills workspace_id, so it names the same workspace itself.
  workspace uuid := coalesce(new.workspace_id, internal.workspace_for_creator(new.user_id));
  allowed integer;
  current_count integer;
begin
  -- Serialise concurrent inserts into one workspace (whichever member adds the account) so two
  -- requests cannot both take the last slot.
  perform 1 from public.workspaces w where w.id = workspace for no key update;
  select l.account_limit into allowed from internal.account_limit(workspace) l;
  select count(*) into current_count from public.social_accounts a where a.workspace_id = workspace;
  if current_count >= allowed then
    raise exception 'Account limit reached. You have %/% accounts.', current_count, allowed
      using errcode = 'P0001', hint = 'Upgrade your plan to add more accounts.';
  end if;
  return new;
end
$function$;

CREATE OR REPLACE FUNCTION internal.refresh_workspace_plan (
  p_workspace_id uuid
)
  RETURNS void
  LANGUAGE sql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  -- The subscription that decides the workspace's plan: a usable one first, else the newest. The
  -- workspace keeps its first Stripe customer, so every later checkout, portal and invoice uses it.
  with deciding as (
    select s.status, s.plan_type
      from public.subscriptions s
     where s.workspace_id = p_workspace_id
     order by (s.status in ('active', 'trialing')) desc, s.created_at desc
     limit 1
  ), customer as (
    select s.stripe_customer_id
      from public.subscriptions s
     where s.workspace_id = p_workspace_id and s.stripe_customer_id is not null
       and not exists (select 1 from public.workspaces o
                        where o.stripe_customer_id = s.stripe_customer_id and o.id <> p_workspace_id)
     order by s.created_at
     limit 1
  )
  update public.workspaces w
     set subscription_status = coalesce((select d.status from deciding d), 'none'),
         subscription_plan = coalesce((select d.plan_type from deciding d where d.status in ('active', 'trialing')), 'free'),
         stripe_customer_id = coalesce(w.stripe_customer_id, (select c.stripe_customer_id from customer c))
   where w.id = p_workspace_id
$function$;

CREATE OR REPLACE FUNCTION internal.scheduler_queue_campaign_ticks (
  p_at       timestamp with time zone,
  p_tick_cap integer
)
  RETURNS integer
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  ticks integer;
begin
  -- Campaign ticks: one per account a minute, round-robin between its due campaigns (the one whose
  -- next send time passed first). A campaign with a tick still waiting or being worked gets none:
  -- the job is the lease. The runner sets next_action_at after each tick (its gap to the next send).
  with candidates as (
    select c.id, c.account_id, c.next_action_at
      from public.campaigns c
      join public.social_accounts a on a.id = c.account_id
     where c.status in ('queued', 'running', 'active')
       and coalesce(c.next_action_at, '-infinity'::timestamptz) <= p_at
       and a.status = 'active'
       and internal.campaign_window_open(c.id, c.schedule, p_at)
       -- The platform as a subquery, not a third join: on a low row estimate for the due campaigns
       -- the planner joined every platform to every due campaign first and merged that with all
       -- accounts (2 million pairs, 390 ms); this way only campaigns in their window look it up.
       and internal.campaign_sends_left_today(c, a, (select p from public.platforms p where p.id = a.platform_id), p_at) > 0
       and exists (select 1 from public.campaign_leads l where l.campaign_id = c.id and l.next_send_at <= p_at)
       -- Not while sending on the platform is paused after a site change (its leads stay due).
       and a.platform_id not in (select p.id from public.platform_action_pauses pa join public.platforms p on p.name = pa.platform
                                  where pa.action in ('send', 'session'))
       -- Not in a workspace without a plan (the few such workspaces as one hashed set).
       and c.workspace_id not in (select w.id from public.workspaces w where not internal.workspace_sends(w))
       -- One hashed set of unfinished ticks, not a probe per campaign: cheap whatever the statistics say.
       and ('campaign:' || c.id) not in (select j.singleton_key from pgboss.job j
                                          where j.name = 'campaign.tick' and j.state < 'completed' and j.singleton_key is not null)
  ), chosen as (
    select distinct on (x.account_id) x.id, x.account_id, x.next_action_at
      from candidates x
     order by x.account_id, x.next_action_at nulls first, x.id
  ), capped as (
    select ch.id, ch.account_id from chosen ch order by ch.next_action_at nulls first, ch.id limit p_tick_cap
  ), queued as (
    select (e.data ->> 'campaignId')::uuid as campaign_id
      from internal.enqueue_jobs('campaign.tick', (
             select jsonb_agg(jsonb_build_object('data', jsonb_build_object('campaignId', ch.id, 'accountId', ch.account_id),
                                                 'singletonKey', 'campaign:' || ch.id))
               from capped ch)) e
  ), started as (
    update public.campaigns c set status = 'running'
      from queued q
     where c.id = q.campaign_id and c.status = 'queued'
    returning 1
  )
  select count(*) into ticks from queued;
  return ticks;
end
$function$;

CREATE OR REPLACE FUNCTION internal.sync_workspace_subscription()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  if tg_op <> 'INSERT' then
    perform internal.refresh_workspace_plan(old.workspace_id);
  end if;
  if tg_op <> 'DELETE' and (tg_op = 'INSERT' or new.workspace_id is distinct from old.workspace_id) then
    perform internal.refresh_workspace_plan(new.workspace_id);
  end if;
  return null;
end
$function$;

CREATE OR REPLACE FUNCTION internal.workspace_sends (
  w public.workspaces
)
  RETURNS boolean
  LANGUAGE sql
  IMMUTABLE
  SET search_path TO ''
  AS $function$
  -- The free plan is one per person: their personal workspace (its id is theirs) sends without a
  -- plan; any other workspace sends only while its plan is active or trialing.
  select w.id = w.created_by or w.subscription_status in ('active', 'trialing')
$function$;

CREATE OR REPLACE FUNCTION public.active_workspace_plan()
  RETURNS TABLE (
    workspace_id        uuid,
    name                text,
    role                public.workspace_role,
    personal            boolean,
    plan_type           text,
    subscription_status text,
    sends               boolean,
    owner_name          text
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  -- Every member may know the plan and who can change it; the subscription rows stay the owner's.
  select w.id, w.name, m.role, w.id = w.created_by, w.subscription_plan, w.subscription_status,
         internal.workspace_sends(w),
         (select coalesce(nullif(btrim(p.full_name), ''), u.email::text)
            from public.workspace_members o
            join auth.users u on u.id = o.user_id
            left join public.user_profiles p on p.id = o.user_id
           where o.workspace_id = w.id and o.role = 'owner'
           order by o.created_at, o.user_id
           limit 1)
    from public.workspaces w
    join public.workspace_members m on m.workspace_id = w.id and m.user_id = (select auth.uid())
   where w.id = internal.active_workspace_of((select auth.uid()))
$function$;

REVOKE ALL ON FUNCTION "public"."active_workspace_plan"() FROM PUBLIC, "anon";

CREATE OR REPLACE FUNCTION public.check_account_limit()
  RETURNS jsonb
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  me uuid := (select auth.uid());
  -- Every member counts the workspace's accounts against its plan, whichever they may read.
  workspace uuid := internal.active_workspace_of(me);
  current_count integer;
  allowed integer;
  plan text;
  status text;
  message text;
begin
  if me is null then
    raise exception 'User not authenticated' using errcode = '42501';
  end if;
  select count(*) into current_count from public.social_accounts a where a.workspace_id = workspace;
  -- The limit itself is computed by the same helper the insert trigger enforces.
  select l.account_limit, l.plan_type, l.subscription_status into allowed, plan, status
    from internal.account_limit(workspace) l;
  if current_count >= allowed then
    message := case
      when plan <> 'free' then format('Account limit reached. You have %s/%s accounts.', current_count, allowed)
      when status in ('past_due', 'canceled', 'incomplete') then 'Subscription is not active'
      else 'You are currently limited to 1 social media account. Upgrade your plan to add more accounts.'
    end;
  end if;
  return jsonb_build_object('canAddAccount', current_count < allowed, 'currentCount', current_count,
    'limit', allowed, 'planType', plan, 'error', message);
end
$function$;

CREATE OR REPLACE FUNCTION public.record_stripe_subscription (
  p_subscription jsonb
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  incoming public.subscriptions := jsonb_populate_record(null::public.subscriptions, p_subscription);
  saved public.subscriptions;
begin
  if incoming.stripe_subscription_id is null or incoming.user_id is null or incoming.stripe_synced_at is null then
    raise exception 'user_id, stripe_subscription_id and stripe_synced_at are required' using errcode = '22023';
  end if;
  -- The workspace is fixed by the first record (workspace_id null: the buyer's active workspace); a
  -- later fetch never moves the subscription to another workspace.
  insert into public.subscriptions (user_id, workspace_id, status, plan_type, billing_period, accounts_purchased, stripe_customer_id,
    stripe_subscription_id, stripe_price_id, current_period_start, current_period_end, cancel_at_period_end,
    canceled_at, trial_end, stripe_synced_at)
  values (incoming.user_id, incoming.workspace_id, incoming.status, incoming.plan_type, coalesce(incoming.billing_period, 'monthly'),
    coalesce(incoming.accounts_purchased, 1), incoming.stripe_customer_id, incoming.stripe_subscription_id,
    incoming.stripe_price_id, incoming.current_period_start, incoming.current_period_end,
    coalesce(incoming.cancel_at_period_end, false), incoming.canceled_at, incoming.trial_end, incoming.stripe_synced_at)
  on conflict (stripe_subscription_id) do update
    set status = excluded.status,
        plan_type = excluded.plan_type,
        billing_period = excluded.billing_period,
        accounts_purchased = excluded.accounts_purchased,
        stripe_customer_id = excluded.stripe_customer_id,
        stripe_price_id = excluded.stripe_price_id,
        current_period_start = excluded.current_period_start,
        current_period_end = excluded.current_period_end,
        cancel_at_period_end = excluded.cancel_at_period_end,
        canceled_at = excluded.canceled_at,
        trial_end = excluded.trial_end,
        stripe_synced_at = excluded.stripe_synced_at
    where public.subscriptions.stripe_synced_at is null
       or public.subscriptions.stripe_synced_at <= excluded.stripe_synced_at
  returning * into saved;
  if saved.id is null then
    select * into saved from public.subscriptions s where s.stripe_subscription_id = incoming.stripe_subscription_id;
    return to_jsonb(saved) || '{"stale": true}'::jsonb;
  end if;
  return to_jsonb(saved) || '{"stale": false}'::jsonb;
end
$function$;

ALTER TABLE "public"."workspaces"
  ADD CONSTRAINT "workspaces_subscription_plan_check" CHECK ((subscription_plan = ANY (ARRAY['free'::text, 'starter'::text, 'growth'::text, 'enterprise'::text, 'bundle'::text])));

ALTER TABLE "public"."workspaces"
  ADD CONSTRAINT "workspaces_subscription_status_check"
    CHECK ((subscription_status = ANY (ARRAY['none'::text, 'active'::text, 'trialing'::text, 'past_due'::text, 'canceled'::text, 'incomplete'::text])));

CREATE UNIQUE INDEX workspaces_stripe_customer_id_key ON public.workspaces USING btree (stripe_customer_id);

CREATE TRIGGER subscriptions_sync_workspace
  AFTER INSERT OR DELETE OR UPDATE ON public.subscriptions
  FOR EACH ROW
  EXECUTE FUNCTION internal.sync_workspace_subscription();

COMMENT ON COLUMN "public"."workspaces"."stripe_customer_id" IS 'The workspace''s Stripe customer (cus_...): every checkout, portal and invoice of the workspace uses it. Set from its first subscription.';

COMMENT ON COLUMN "public"."workspaces"."subscription_plan" IS 'The plan in use: the deciding subscription''s plan while active or trialing, else free.';

COMMENT ON COLUMN "public"."workspaces"."subscription_status" IS 'Mirror of the subscription that decides the workspace''s plan (internal.refresh_workspace_plan); none without one.';

COMMENT ON FUNCTION "internal"."account_limit"(uuid) IS 'How many social accounts the workspace''s plan allows: the sum of accounts_purchased over its active or trialing subscriptions, else 1 (free).';

COMMENT ON FUNCTION "internal"."account_limit_refusal"(uuid) IS 'Why the person cannot add another account to their active workspace (product.md §6 texts, as check_account_limit says them to the signed-in caller), or null when the workspace''s plan has room: one wording for every way an account is created.';

COMMENT ON FUNCTION "internal"."enforce_account_limit"() IS 'BEFORE INSERT on social_accounts: refuses an account beyond the workspace''s plan limit, whoever inserts it.';

COMMENT ON FUNCTION "internal"."refresh_workspace_plan"(uuid) IS 'Mirrors the subscription that decides a workspace''s plan onto the workspace (status, plan: free unless active or trialing) and keeps its first Stripe customer.';

COMMENT ON FUNCTION "internal"."scheduler_queue_campaign_ticks"(timestamp with time zone, integer) IS 'The scheduler''s campaign ticks: one per account, round-robin between its due campaigns, at most p_tick_cap, none while sending on the platform is paused or in a workspace without a plan (internal.workspace_sends). Returns how many it queued.';

COMMENT ON FUNCTION "internal"."sync_profile_subscription"() IS 'AFTER write on subscriptions: mirrors the deciding subscription among those the person bought onto user_profiles (free unless active or trialing). What a workspace may do reads the workspace''s own mirror.';

COMMENT ON FUNCTION "internal"."sync_workspace_subscription"() IS 'AFTER write on subscriptions: refreshes the plan mirrored on the workspace(s) the row belongs to.';

COMMENT ON FUNCTION "internal"."workspace_sends"(public.workspaces) IS 'Whether the workspace''s campaigns send: its personal owner''s free plan, or an active or trialing subscription. The scheduler queues no campaign tick otherwise.';

COMMENT ON FUNCTION "public"."active_workspace_plan"() IS 'The caller''s active workspace as billing sees it: their role, whether it is their personal one, its plan and status, whether its campaigns send (internal.workspace_sends) and its owner''s name (full name, else e-mail). No row when they belong to none.';

COMMENT ON FUNCTION "public"."check_account_limit"() IS 'product.md §6 account-limit check for the caller''s active workspace: {canAddAccount, currentCount, limit, planType, error}. Free plan (no active or trialing subscription) allows 1 account.';

COMMENT ON FUNCTION "public"."record_stripe_subscription"(jsonb) IS 'Service role only: upserts a subscription as fetched from Stripe (subscriptions columns as JSON; workspace_id from the checkout, kept once stored). Returns the stored row with stale = true when a newer fetch was already stored.';

REVOKE ALL ON FUNCTION "internal"."account_limit"(uuid) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "internal"."account_limit"(uuid) TO "authenticated", "service_role";

REVOKE ALL ON FUNCTION "internal"."refresh_workspace_plan"(uuid) FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."sync_workspace_subscription"() FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."workspace_sends"(public.workspaces) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "internal"."workspace_sends"(public.workspaces) TO "authenticated", "service_role";

GRANT EXECUTE ON FUNCTION "public"."active_workspace_plan"() TO "authenticated";

REVOKE ALL ON FUNCTION "public"."active_workspace_plan"() FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."active_workspace_plan"() TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."active_workspace_plan"() TO "service_role";

select internal.refresh_workspace_plan(w.id) from public.workspaces w;
