-- The admin's Manage drawer shows an account's sends of today's real allowance (the cap the runner
-- and the scheduler keep) instead of its own limit, and counts today on the database clock like
-- every other reader. Written by `npm run db:diff` (pg-delta) from supabase/schemas.

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION public.admin_social_account_detail (
  p_account_id uuid
)
  RETURNS jsonb
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  select jsonb_build_object(
    'id', a.id,
    'username', a.username,
    'platform_name', pl.name,
    'platformDisplayName', pl.display_name,
    'userEmail', u.email,
    'status', a.status,
    'flagReason', a.flag_reason,
    'pausedUntil', a.paused_until,
    'warmupPhase', a.warmup_phase,
    'warmupStartedAt', a.warmup_started_at,
    'trustScore', a.trust_score,
    'dailyMessageLimit', a.daily_message_limit,
    -- today's allowance and count as the runner and the scheduler keep them
    'allowedToday', internal.account_daily_cap(a, pl),
    'messagesSentToday', internal.account_sent_today(a, internal.now()),
    'requestsPending', a.requests_pending,
    'lastLogin', a.last_login_at,
    'lastSyncedAt', a.last_synced_at,
    'lastTestedAt', a.last_tested_at,
    'createdAt', a.created_at,
    'campaigns', coalesce((
      select jsonb_agg(jsonb_build_object('id', c.id, 'name', c.name, 'status', c.status, 'messages_sent', c.messages_sent)
             order by c.created_at desc)
        from public.campaigns c where c.account_id = a.id), '[]'::jsonb),
    'recentMessages', coalesce((
      select jsonb_agg(x order by x.sent_at desc)
        from (select d.id, d.status, d.target_username, d.error, d.sent_at
                from public.dm_logs d where d.account_id = a.id order by d.sent_at desc limit 10) x), '[]'::jsonb))
    from public.social_accounts a
    join public.platforms pl on pl.id = a.platform_id
    join auth.users u on u.id = a.user_id
   where a.id = p_account_id
$function$;

COMMENT ON FUNCTION "public"."admin_social_account_detail"(uuid) IS 'Admin Manage: an account''s status, flag, pause, warm-up, trust, today''s sends and allowance (internal.account_daily_cap), its campaigns and latest messages. Null for an unknown account.';
