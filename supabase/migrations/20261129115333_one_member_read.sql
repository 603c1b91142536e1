-- one member read: written by `npm run db:diff` (pg-delta) from supabase/schemas.
-- public.workspace_people() (the inbox's assignees, the activity filters) repeated what
-- public.workspace_member_list(uuid) answers for the Members page, for the active workspace only and
-- without its membership check. Every caller now reads workspace_member_list, which every role of
-- a member may call (an agent still lists assignees) and which now orders a blank name like none.

SET local check_function_bodies = off;

DROP FUNCTION "public"."workspace_people"();

CREATE OR REPLACE FUNCTION public.workspace_member_list (
  p_workspace_id uuid
)
  RETURNS TABLE (
    user_id   uuid,
    full_name text,
    email     text,
    role      public.workspace_role,
    joined_at timestamp with time zone
  )
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  perform internal.require_member_role(p_workspace_id, '{owner,admin,editor,agent,viewer}');
  return query
    select m.user_id, p.full_name, u.email::text, m.role, m.created_at
      from public.workspace_members m
      join auth.users u on u.id = m.user_id
      left join public.user_profiles p on p.id = m.user_id
     where m.workspace_id = p_workspace_id
     order by m.role, lower(coalesce(nullif(p.full_name, ''), u.email::text)), m.user_id;
end
$function$;

COMMENT ON FUNCTION "public"."workspace_member_list"(uuid) IS 'A workspace''s members with name, e-mail (from auth.users), role and when they joined, by role then name; every role of a member may read it: the Members page, the inbox''s assign control and notes, the activity filters.';
