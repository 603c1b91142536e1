-- Workspaces' policies (issue 44): every client policy on the 26 tenant tables asks one helper,
-- workspace_id = (select internal.active_workspace_with_role(roles)), with the roles of the role
-- matrix (docs/database.md, "Workspaces"): members read their active workspace's rows, owners,
-- admins and editors write them, agents only reach the inbox (and reply notifications), viewers only
-- read, billing is the owner's. Inserts still name their creator (user_id = auth.uid()). The
-- triggers that checked a campaign's, scraping campaign's, list member's and automation's parents
-- were the caller's now check they are in the row's workspace.

SET local check_function_bodies = off;

DROP POLICY "Users can read their own AI usage" ON "public"."ai_usage";

DROP POLICY "Users can read their own campaigns' daily figures" ON "public"."campaign_daily_stats";

DROP POLICY "Users can read the leads of their own campaigns" ON "public"."campaign_leads";

DROP POLICY "Users can create campaigns for themselves" ON "public"."campaigns";

DROP POLICY "Users can delete their own campaigns" ON "public"."campaigns";

DROP POLICY "Users can read their own campaigns" ON "public"."campaigns";

DROP POLICY "Users can update their own campaigns" ON "public"."campaigns";

DROP POLICY "Users can read their own contact ledger" ON "public"."contact_ledger";

DROP POLICY "Users can read their own message logs" ON "public"."dm_logs";

DROP POLICY "Users can add to their own do-not-contact list" ON "public"."do_not_contact";

DROP POLICY "Users can read their own do-not-contact list" ON "public"."do_not_contact";

DROP POLICY "Users can remove from their own do-not-contact list" ON "public"."do_not_contact";

DROP POLICY "Customers read their own inbox check requests" ON "public"."inbox_check_requests";

DROP POLICY "Customers read the messages of their own inbox threads" ON "public"."inbox_messages";

DROP POLICY "Customers read their own inbox threads" ON "public"."inbox_threads";

DROP POLICY "Customers read their own follow-ups" ON "public"."instagram_automation_followups";

DROP POLICY "Customers read their own automation runs" ON "public"."instagram_automation_runs";

DROP POLICY "Customers add automations of their own" ON "public"."instagram_automations";

DROP POLICY "Customers change their own automations" ON "public"."instagram_automations";

DROP POLICY "Customers delete their own automations" ON "public"."instagram_automations";

DROP POLICY "Customers read their own automations" ON "public"."instagram_automations";

DROP POLICY "Users can add their own leads to their own lead lists" ON "public"."lead_list_members";

DROP POLICY "Users can read the members of their own lead lists" ON "public"."lead_list_members";

DROP POLICY "Users can remove members from their own lead lists" ON "public"."lead_list_members";

DROP POLICY "Users can create lead lists for themselves" ON "public"."lead_lists";

DROP POLICY "Users can delete their own lead lists" ON "public"."lead_lists";

DROP POLICY "Users can read their own lead lists" ON "public"."lead_lists";

DROP POLICY "Users can rename their own lead lists" ON "public"."lead_lists";

DROP POLICY "Users can read the message variants of their own campaigns" ON "public"."message_variants";

DROP POLICY "Users can delete their own notifications" ON "public"."notifications";

DROP POLICY "Users can mark their own notifications read" ON "public"."notifications";

DROP POLICY "Users can read their own notifications" ON "public"."notifications";

DROP POLICY "Users can change their own opt-out words" ON "public"."opt_out_settings";

DROP POLICY "Users can read their own opt-out words" ON "public"."opt_out_settings";

DROP POLICY "Users can set their own opt-out words" ON "public"."opt_out_settings";

DROP POLICY "Users can read their own payments" ON "public"."payments";

DROP POLICY "Users can read their own scraped leads" ON "public"."scraping_campaign_leads";

DROP POLICY "Users can create scraping campaigns for themselves" ON "public"."scraping_campaigns";

DROP POLICY "Users can delete their own scraping campaigns" ON "public"."scraping_campaigns";

DROP POLICY "Users can read their own scraping campaigns" ON "public"."scraping_campaigns";

DROP POLICY "Users can update their own scraping campaigns" ON "public"."scraping_campaigns";

DROP POLICY "Users can delete their own social accounts" ON "public"."social_accounts";

DROP POLICY "Users can read their own social accounts" ON "public"."social_accounts";

DROP POLICY "Users can update their own social accounts" ON "public"."social_accounts";

DROP POLICY "Users can read their own subscriptions" ON "public"."subscriptions";

DROP POLICY "Users can read their own X API usage" ON "public"."x_api_usage";

CREATE OR REPLACE FUNCTION internal.check_instagram_automation_account()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  -- Runs before a service insert's workspace is filled in from the account.
  if not exists (select 1 from public.social_accounts a join public.platforms p on p.id = a.platform_id
                  where a.id = new.account_id and a.workspace_id = coalesce(new.workspace_id, a.workspace_id)
                    and a.connection = 'official' and p.name = 'instagram') then
    raise exception 'Automations run on an Instagram account connected through Instagram''s API. Choose one of yours.'
      using errcode = '23503';
  end if;
  return new;
end
$function$;

CREATE OR REPLACE FUNCTION internal.check_lead_list_member()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  list_workspace uuid := (select l.workspace_id from public.lead_lists l where l.id = new.lead_list_id);
begin
  -- Runs before the workspace is filled in for a service insert: then the list's workspace counts.
  if list_workspace is null or list_workspace <> coalesce(new.workspace_id, list_workspace)
     or not exists (select 1 from public.scraping_campaign_leads s where s.id = new.scraping_lead_id and s.workspace_id = list_workspace) then
    raise exception 'The list and the lead must both be yours' using errcode = '42501';
  end if;
  return new;
end
$function$;

CREATE OR REPLACE FUNCTION internal.prepare_campaign()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  account_platform uuid;
begin
  new.sequences := internal.normalized_sequences(new.sequences);
  new.schedule := internal.normalized_schedule(new.schedule);
  if new.message_template is null or btrim(new.message_template) = '' then
    select m into new.message_template
      from jsonb_array_elements_text(new.sequences -> 'messages') m where btrim(m) <> '' limit 1;
  end if;

  if new.account_id is not null and (tg_op = 'INSERT' or new.account_id is distinct from old.account_id) then
    select a.platform_id into account_platform
      from public.social_accounts a where a.id = new.account_id and a.workspace_id = new.workspace_id;
    if account_platform is null then
      raise exception 'Choose one of your social accounts for this campaign' using errcode = '23503';
    end if;
    if tg_op = 'UPDATE' and account_platform <> old.platform_id then
      raise exception 'The new account must be on the same platform as the campaign' using errcode = '22023';
    end if;
    new.platform_id := account_platform;
  elsif tg_op = 'INSERT' and new.platform_id is null then
    raise exception 'Choose one of your social accounts for this campaign' using errcode = '23503';
  end if;

  if new.scraping_campaign_id is not null and (tg_op = 'INSERT' or new.scraping_campaign_id is distinct from old.scraping_campaign_id) then
    if not exists (select 1 from public.scraping_campaigns s where s.id = new.scraping_campaign_id and s.workspace_id = new.workspace_id) then
      raise exception 'Choose one of your scraping campaigns as the lead source' using errcode = '23503';
    end if;
    if not exists (select 1 from public.scraping_campaigns s where s.id = new.scraping_campaign_id and s.platform_id = new.platform_id) then
      raise exception 'The lead source must be on the same platform as the account' using errcode = '22023';
    end if;
  end if;
  if new.lead_list_id is not null and (tg_op = 'INSERT' or new.lead_list_id is distinct from old.lead_list_id)
     and not exists (select 1 from public.lead_lists l where l.id = new.lead_list_id and l.workspace_id = new.workspace_id) then
    raise exception 'Choose one of your lead lists as the lead source' using errcode = '23503';
  end if;
  if tg_op = 'UPDATE' and old.status <> 'draft'
     and (new.scraping_campaign_id is distinct from old.scraping_campaign_id or new.lead_list_id is distinct from old.lead_list_id)
     and internal.is_client_role() then
    raise exception 'The lead source can only change while the campaign is a draft' using errcode = '22023';
  end if;

  if tg_op = 'INSERT' then
    if new.run_immediately and new.status = 'draft' then
      new.status := 'running';
    end if;
    if new.status in ('queued', 'running', 'active') then
      new.started_at := coalesce(new.started_at, internal.now());
    end if;
  end if;
  return new;
end
$function$;

CREATE OR REPLACE FUNCTION internal.prepare_scraping_campaign()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  account_platform uuid;
begin
  select a.platform_id into account_platform
    from public.social_accounts a
   where a.id = new.account_id and a.workspace_id = new.workspace_id;
  if account_platform is null then
    raise exception 'Choose one of your social accounts for this campaign' using errcode = '23503';
  end if;
  new.platform_id := account_platform;
  return new;
end
$function$;

CREATE POLICY "Members and admins can read the workspace's AI usage" ON "public"."ai_usage"
  FOR SELECT
  TO "authenticated"
  USING
    (((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) AS active_workspace_with_role)) OR ( SELECT
    internal.is_admin() AS is_admin)));

CREATE POLICY "Members can read the workspace's campaigns' daily figures" ON "public"."campaign_daily_stats"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members can read the workspace's campaign leads" ON "public"."campaign_leads"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members can read the workspace's campaigns" ON "public"."campaigns"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members who edit can change the workspace's campaigns" ON "public"."campaigns"
  FOR UPDATE
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)))
  WITH CHECK ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members who edit can create the workspace's campaigns" ON "public"."campaigns"
  FOR INSERT
  TO "authenticated"
  WITH
    CHECK
    (((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)) AND (user_id = ( SELECT
    auth.uid() AS uid))));

CREATE POLICY "Members who edit can delete the workspace's campaigns" ON "public"."campaigns"
  FOR DELETE
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members can read the workspace's contact ledger" ON "public"."contact_ledger"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members can read the workspace's message logs" ON "public"."dm_logs"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members can read the workspace's do-not-contact list" ON "public"."do_not_contact"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members who edit can create the workspace's do-not-contact list" ON "public"."do_not_contact"
  FOR INSERT
  TO "authenticated"
  WITH
    CHECK
    (((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)) AND (user_id = ( SELECT
    auth.uid() AS uid))));

CREATE POLICY "Members who edit can delete the workspace's do-not-contact list" ON "public"."do_not_contact"
  FOR DELETE
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members can read the workspace's inbox check requests" ON "public"."inbox_check_requests"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,agent}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members can read the workspace's inbox messages" ON "public"."inbox_messages"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,agent}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members can read the workspace's inbox threads" ON "public"."inbox_threads"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,agent}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members can read the workspace's follow-ups" ON "public"."instagram_automation_followups"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members can read the workspace's automation runs" ON "public"."instagram_automation_runs"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members can read the workspace's automations" ON "public"."instagram_automations"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members who edit can change the workspace's automations" ON "public"."instagram_automations"
  FOR UPDATE
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)))
  WITH CHECK ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members who edit can create the workspace's automations" ON "public"."instagram_automations"
  FOR INSERT
  TO "authenticated"
  WITH
    CHECK
    (((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)) AND (user_id = ( SELECT
    auth.uid() AS uid))));

CREATE POLICY "Members who edit can delete the workspace's automations" ON "public"."instagram_automations"
  FOR DELETE
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members can read the workspace's lead list members" ON "public"."lead_list_members"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members who edit can create the workspace's lead list members" ON "public"."lead_list_members"
  FOR INSERT
  TO "authenticated"
  WITH
    CHECK
    (((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)) AND (user_id = ( SELECT
    auth.uid() AS uid))));

CREATE POLICY "Members who edit can delete the workspace's lead list members" ON "public"."lead_list_members"
  FOR DELETE
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members can read the workspace's lead lists" ON "public"."lead_lists"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members who edit can change the workspace's lead lists" ON "public"."lead_lists"
  FOR UPDATE
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)))
  WITH CHECK ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members who edit can create the workspace's lead lists" ON "public"."lead_lists"
  FOR INSERT
  TO "authenticated"
  WITH
    CHECK
    (((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)) AND (user_id = ( SELECT
    auth.uid() AS uid))));

CREATE POLICY "Members who edit can delete the workspace's lead lists" ON "public"."lead_lists"
  FOR DELETE
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members can read the workspace's message variants" ON "public"."message_variants"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Agents can read the workspace's reply notifications" ON "public"."notifications"
  FOR SELECT
  TO "authenticated"
  USING (((workspace_id = ( SELECT internal.active_workspace_with_role('{agent}'::public.workspace_role[]) AS active_workspace_with_role)) AND (TYPE = 'lead_replied'::text)));

CREATE POLICY "Members can read the workspace's notifications" ON "public"."notifications"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members who edit can delete the workspace's notifications" ON "public"."notifications"
  FOR DELETE
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members who edit can mark the workspace's notifications read" ON "public"."notifications"
  FOR UPDATE
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)))
  WITH CHECK ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members can read the workspace's opt-out words" ON "public"."opt_out_settings"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members who edit can change the workspace's opt-out words" ON "public"."opt_out_settings"
  FOR UPDATE
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)))
  WITH CHECK ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members who edit can create the workspace's opt-out words" ON "public"."opt_out_settings"
  FOR INSERT
  TO "authenticated"
  WITH
    CHECK
    (((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)) AND (user_id = ( SELECT
    auth.uid() AS uid))));

CREATE POLICY "Owners can read the workspace's payments" ON "public"."payments"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members can read the workspace's scraped leads" ON "public"."scraping_campaign_leads"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members can read the workspace's scraping campaigns" ON "public"."scraping_campaigns"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members who edit can change the workspace's scraping campaigns" ON "public"."scraping_campaigns"
  FOR UPDATE
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)))
  WITH CHECK ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members who edit can create the workspace's scraping campaigns" ON "public"."scraping_campaigns"
  FOR INSERT
  TO "authenticated"
  WITH
    CHECK
    (((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)) AND (user_id = ( SELECT
    auth.uid() AS uid))));

CREATE POLICY "Members who edit can delete the workspace's scraping campaigns" ON "public"."scraping_campaigns"
  FOR DELETE
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members can read the workspace's social accounts" ON "public"."social_accounts"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,agent,viewer}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members who edit can change the workspace's social accounts" ON "public"."social_accounts"
  FOR UPDATE
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)))
  WITH CHECK ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members who edit can delete the workspace's social accounts" ON "public"."social_accounts"
  FOR DELETE
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Owners can read the workspace's subscriptions" ON "public"."subscriptions"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner}'::public.workspace_role[]) AS active_workspace_with_role)));

CREATE POLICY "Members can read the workspace's X API usage" ON "public"."x_api_usage"
  FOR SELECT
  TO "authenticated"
  USING ((workspace_id = ( SELECT internal.active_workspace_with_role('{owner,admin,editor,viewer}'::public.workspace_role[]) AS active_workspace_with_role)));

COMMENT ON FUNCTION "internal"."check_instagram_automation_account"() IS 'An automation belongs to one of its workspace''s official Instagram accounts.';

COMMENT ON FUNCTION "internal"."check_lead_list_member"() IS 'BEFORE INSERT on lead_list_members: list and lead must belong to the member row''s workspace.';

COMMENT ON FUNCTION "internal"."prepare_campaign"() IS 'BEFORE INSERT/UPDATE on campaigns: validates sequences and schedule, checks the account and lead source are in the campaign''s workspace, starts run_immediately campaigns.';

COMMENT ON FUNCTION "internal"."prepare_scraping_campaign"() IS 'BEFORE INSERT on scraping_campaigns: the account must be in the campaign''s workspace; the platform comes from it.';
