-- one role gate: written by `npm run db:diff` (pg-delta) from supabase/schemas.
-- internal.require_active_role (the gate of the RPCs that write the active workspace's rows) repeated
-- internal.require_member_role (the members RPCs' gate for an explicit workspace) word for word. It
-- now asks require_member_role about the active workspace, so one function decides who is refused
-- and with which words; the errors are the same (42501, not a member / role too low).

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION internal.require_active_role (
  p_roles public.workspace_role[]
)
  RETURNS uuid
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  workspace uuid := internal.active_workspace_of(auth.uid());
begin
  -- The members RPCs' gate decides for the active workspace too: one place says who is refused and with which words.
  perform internal.require_member_role(workspace, p_roles);
  return workspace;
end
$function$;
