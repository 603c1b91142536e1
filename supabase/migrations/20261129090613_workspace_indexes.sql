-- Workspaces (issue 44): the client's reads are now filtered by workspace_id, so the composite
-- indexes they used with user_id (newest first, per day, unread, replied, do-not-contact skips) get
-- a workspace_id twin, which also covers the foundation's single-column workspace_id index. The
-- user_id indexes stay: the runner's reads and auth.users' cascades still use them.

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

CREATE INDEX campaign_leads_workspace_do_not_contact_idx ON public.campaign_leads USING btree (workspace_id, lower(username))
  WHERE (skip_reason = 'do_not_contact'::text);

CREATE INDEX campaign_leads_workspace_id_collected_at_idx ON public.campaign_leads USING btree (workspace_id, collected_at DESC);

CREATE INDEX campaign_leads_workspace_replied_at_idx ON public.campaign_leads USING btree (workspace_id, replied_at)
  WHERE (replied_at IS NOT NULL);

CREATE INDEX campaigns_workspace_id_created_at_idx ON public.campaigns USING btree (workspace_id, created_at DESC);

CREATE INDEX dm_logs_workspace_id_sent_at_idx ON public.dm_logs USING btree (workspace_id, sent_at DESC) INCLUDE (status);

CREATE INDEX do_not_contact_workspace_id_created_at_idx ON public.do_not_contact USING btree (workspace_id, created_at DESC);

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
