-- Admin workspaces: the admin tab lists every workspace (owner, members per role, plan and status,
-- accounts used against its plan's limit, created) and shows one with its members, so support can
-- answer an agency's "why does my client's workspace not send" without reading tables.

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION public.admin_workspace_detail (
  p_workspace_id uuid
)
  RETURNS jsonb
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  select jsonb_build_object(
    'id', w.id,
    'name', w.name,
    'personal', w.id = w.created_by,
    'planType', w.subscription_plan,
    'subscriptionStatus', w.subscription_status,
    'sends', internal.workspace_sends(w),
    'stripeCustomerId', w.stripe_customer_id,
    'accountsUsed', (select count(*)::integer from public.social_accounts a where a.workspace_id = w.id),
    'accountLimit', (select l.account_limit from internal.account_limit(w.id) l),
    'createdAt', w.created_at,
    'members', coalesce((
      select jsonb_agg(jsonb_build_object(
               'userId', m.user_id, 'email', u.email, 'fullName', nullif(btrim(p.full_name), ''),
               'role', m.role, 'joinedAt', m.created_at)
             order by m.role, lower(u.email::text))
        from public.workspace_members m
        join auth.users u on u.id = m.user_id
        left join public.user_profiles p on p.id = m.user_id
       where m.workspace_id = w.id), '[]'::jsonb))
    from public.workspaces w
   where w.id = p_workspace_id
$function$;

REVOKE ALL ON FUNCTION "public"."admin_workspace_detail"(uuid) FROM PUBLIC, "anon", "authenticated";

CREATE OR REPLACE FUNCTION public.admin_workspaces (
  p_limit integer DEFAULT 500
)
  RETURNS TABLE (
    id                  uuid,
    name                text,
    owner_email         text,
    member_count        integer,
    roles               jsonb,
    plan_type           text,
    subscription_status text,
    accounts_used       integer,
    account_limit       integer,
    created_at          timestamp with time zone
  )
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
  select w.id, w.name,
         (select u.email::text from public.workspace_members o join auth.users u on u.id = o.user_id
           where o.workspace_id = w.id and o.role = 'owner' order by o.created_at, o.user_id limit 1),
         (select count(*)::integer from public.workspace_members m where m.workspace_id = w.id),
         (select coalesce(jsonb_object_agg(r.role, r.members), '{}'::jsonb)
            from (select m.role, count(*)::integer as members from public.workspace_members m
                   where m.workspace_id = w.id group by m.role) r),
         w.subscription_plan, w.subscription_status,
         (select count(*)::integer from public.social_accounts a where a.workspace_id = w.id),
         (select l.account_limit from internal.account_limit(w.id) l),
         w.created_at
    from public.workspaces w
   order by w.created_at desc, w.id
   limit least(greatest(coalesce(p_limit, 500), 1), 1000)
$function$;

REVOKE ALL ON FUNCTION "public"."admin_workspaces"(integer) FROM PUBLIC, "anon", "authenticated";

COMMENT ON FUNCTION "public"."admin_workspace_detail"(uuid) IS 'Admin workspace detail: its plan, whether it sends, accounts used against its limit, and every member with their role (owners first). Null for an unknown workspace.';

COMMENT ON FUNCTION "public"."admin_workspaces"(integer) IS 'Admin Workspaces table: newest first, with the owner, members per role, plan and status, and accounts used against the limit.';

REVOKE ALL ON FUNCTION "public"."admin_workspace_detail"(uuid) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."admin_workspace_detail"(uuid) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."admin_workspace_detail"(uuid) TO "service_role";

REVOKE ALL ON FUNCTION "public"."admin_workspaces"(integer) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."admin_workspaces"(integer) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."admin_workspaces"(integer) TO "service_role";
