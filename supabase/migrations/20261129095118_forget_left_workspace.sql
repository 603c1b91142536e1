-- forget left workspace: written by `npm run db:diff` (pg-delta) from supabase/schemas.
-- A member who was removed or left kept the workspace's id in user_profiles.active_workspace_id,
-- so their own profile still named a workspace they no longer belong to. A trigger on
-- workspace_members now clears it when the membership goes; the data update at the end clears the
-- profiles that already point at a workspace their owner left.

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION internal.forget_left_workspace()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  -- A profile that still named a workspace its owner no longer belongs to would keep that id
  -- readable to them; whoever removes or leaves, the remembered workspace goes with the membership.
  update public.user_profiles
     set active_workspace_id = null
   where id = old.user_id and active_workspace_id = old.workspace_id;
  return old;
end
$function$;

CREATE TRIGGER workspace_members_forget_left_workspace
  AFTER DELETE ON public.workspace_members
  FOR EACH ROW
  EXECUTE FUNCTION internal.forget_left_workspace();

COMMENT ON FUNCTION "internal"."forget_left_workspace"() IS 'AFTER DELETE on workspace_members: clears the person''s remembered workspace when it was the one they left or were removed from (they fall back to their own).';

REVOKE ALL ON FUNCTION "internal"."forget_left_workspace"() FROM PUBLIC;

-- Data, by hand: profiles remembering a workspace their person no longer belongs to.
update public.user_profiles p
   set active_workspace_id = null
 where p.active_workspace_id is not null
   and not exists (select 1 from public.workspace_members m
                    where m.workspace_id = p.active_workspace_id and m.user_id = p.id);
