-- Ordered reads by workspace keep their index. Once policies and the app's reads ask
-- `workspace_id = <active workspace>` instead of `user_id = auth.uid()`, a page ordered by time
-- (the Leads tab's lead_view, campaigns, threads, notifications, payments…) found only the plain
-- workspace_id index: measured at 1M campaign leads, the lead view's first page for a customer with
-- 120,000 leads went from an index scan (0.4 ms) to reading and sorting all of them (1.7 s). Each
-- (user_id, <order>) index gets its (workspace_id, <order>) twin, which also serves the equality
-- and the foreign key's cascade, so the plain workspace_id index it replaces goes.

DROP INDEX "public"."campaign_daily_stats_workspace_id_idx";

DROP INDEX "public"."campaign_leads_workspace_id_idx";

DROP INDEX "public"."campaigns_workspace_id_idx";

DROP INDEX "public"."dm_logs_workspace_id_idx";

DROP INDEX "public"."do_not_contact_workspace_id_idx";

DROP INDEX "public"."inbox_threads_workspace_id_idx";

DROP INDEX "public"."lead_lists_workspace_id_idx";

DROP INDEX "public"."notifications_workspace_id_idx";

DROP INDEX "public"."payments_workspace_id_idx";

DROP INDEX "public"."scraping_campaign_leads_workspace_id_idx";

DROP INDEX "public"."scraping_campaigns_workspace_id_idx";

DROP INDEX "public"."social_accounts_workspace_id_idx";

DROP INDEX "public"."subscriptions_workspace_id_idx";

DROP INDEX "public"."x_api_usage_workspace_id_idx";

CREATE INDEX campaign_daily_stats_workspace_id_day_idx ON public.campaign_daily_stats USING btree (workspace_id, day);

CREATE INDEX campaign_leads_workspace_id_collected_at_idx ON public.campaign_leads USING btree (workspace_id, collected_at DESC);

CREATE INDEX campaign_leads_workspace_replied_at_idx ON public.campaign_leads USING btree (workspace_id, replied_at)
  WHERE (replied_at IS NOT NULL);

CREATE INDEX campaigns_workspace_id_created_at_idx ON public.campaigns USING btree (workspace_id, created_at DESC);

CREATE INDEX dm_logs_workspace_id_sent_at_idx ON public.dm_logs USING btree (workspace_id, sent_at DESC) INCLUDE (status);

CREATE INDEX do_not_contact_workspace_created_idx ON public.do_not_contact USING btree (workspace_id, created_at DESC);

CREATE INDEX inbox_threads_workspace_id_last_message_at_idx ON public.inbox_threads USING btree (workspace_id, last_message_at DESC);

CREATE INDEX lead_lists_workspace_id_created_at_idx ON public.lead_lists USING btree (workspace_id, created_at DESC);

CREATE INDEX notifications_workspace_id_created_at_idx ON public.notifications USING btree (workspace_id, created_at DESC);

CREATE INDEX notifications_workspace_id_unread_idx ON public.notifications USING btree (workspace_id)
  WHERE (NOT read);

CREATE INDEX payments_workspace_id_created_at_idx ON public.payments USING btree (workspace_id, created_at DESC);

CREATE INDEX scraping_campaign_leads_workspace_id_collected_at_idx ON public.scraping_campaign_leads USING btree (workspace_id, collected_at DESC);

CREATE INDEX scraping_campaigns_workspace_id_created_at_idx ON public.scraping_campaigns USING btree (workspace_id, created_at DESC);

CREATE INDEX social_accounts_workspace_id_created_at_idx ON public.social_accounts USING btree (workspace_id, created_at DESC);

CREATE INDEX subscriptions_workspace_id_created_at_idx ON public.subscriptions USING btree (workspace_id, created_at DESC);

CREATE INDEX x_api_usage_workspace_id_day_idx ON public.x_api_usage USING btree (workspace_id, day);
