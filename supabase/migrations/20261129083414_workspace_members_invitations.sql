-- Workspace members and invitations: owners and admins invite people by e-mail with a role (never
-- owner), the link's token kept only as a SHA-256 hash, one use, 7 days, revocable and resendable;
-- members are listed with their e-mails (security definer, members only), their roles changed, removed
-- or leave; the owner renames, deletes or hands over a workspace. Every RPC answers with the spec's
-- words for a non-member or a role too low, and no workspace ever loses its last owner.

SET local check_function_bodies = off;

CREATE TABLE "public"."workspace_invitations" (
  "id"           uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "workspace_id" uuid                     NOT NULL,
  "email"        text                     NOT NULL,
  "role"         public.workspace_role    NOT NULL,
  "invited_by"   uuid,
  "token_hash"   text                     NOT NULL,
  "created_at"   timestamp with time zone NOT NULL DEFAULT now(),
  "expires_at"   timestamp with time zone NOT NULL,
  "last_sent_at" timestamp with time zone NOT NULL DEFAULT now(),
  "accepted_at"  timestamp with time zone,
  "accepted_by"  uuid,
  "revoked_at"   timestamp with time zone,
  CONSTRAINT "workspace_invitations_email_check"
    CHECK (((email = lower(btrim(email))) AND (char_length(email) <= 254) AND (email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$'::text))),
  CONSTRAINT "workspace_invitations_pkey" PRIMARY KEY (id),
  CONSTRAINT "workspace_invitations_role_check" CHECK ((role <> 'owner'::public.workspace_role)),
  CONSTRAINT "workspace_invitations_token_hash_key" UNIQUE (token_hash)
);

ALTER TABLE "public"."workspace_invitations"
  ENABLE ROW LEVEL SECURITY;

REVOKE ALL ON TABLE "public"."workspace_invitations" FROM "anon";

CREATE OR REPLACE FUNCTION internal.invitation_token_hash (
  p_token text
)
  RETURNS text
  LANGUAGE sql
  IMMUTABLE
  SET search_path TO ''
  AS $function$
  select encode(pg_catalog.sha256(convert_to(coalesce(p_token, ''), 'UTF8')), 'hex')
$function$;

CREATE OR REPLACE FUNCTION internal.issue_invitation_token (
  p_invitation_id uuid
)
  RETURNS text
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  token text := encode(extensions.gen_random_bytes(32), 'hex');
begin
  update public.workspace_invitations
     set token_hash = internal.invitation_token_hash(token),
         expires_at = internal.now() + interval '7 days',
         last_sent_at = internal.now()
   where id = p_invitation_id;
  return token;
end
$function$;

CREATE OR REPLACE FUNCTION internal.refuse_losing_last_owner (
  p_workspace_id uuid,
  p_user_id      uuid
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  -- The workspace row is locked first, so two owners demoting each other at once are decided one after the other.
  perform 1 from public.workspaces w where w.id = p_workspace_id for update;
  if (select m.role from public.workspace_members m where m.workspace_id = p_workspace_id and m.user_id = p_user_id) = 'owner'
     and (select count(*) from public.workspace_members m where m.workspace_id = p_workspace_id and m.role = 'owner') <= 1 then
    raise exception 'A workspace needs an owner. Make someone else the owner first.' using errcode = '42501';
  end if;
end
$function$;

CREATE OR REPLACE FUNCTION internal.require_member_role (
  p_workspace_id uuid,
  p_roles        public.workspace_role[]
)
  RETURNS public.workspace_role
  LANGUAGE plpgsql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  mine public.workspace_role := internal.workspace_role(p_workspace_id);
begin
  if mine is null then
    raise exception 'You are not a member of this workspace.' using errcode = '42501';
  end if;
  if not (mine = any (p_roles)) then
    raise exception 'Your role in this workspace does not allow this.' using errcode = '42501';
  end if;
  return mine;
end
$function$;

CREATE OR REPLACE FUNCTION public.accept_invitation (
  p_token text
)
  RETURNS uuid
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  found public.workspace_invitations%rowtype;
  my_email text;
begin
  if auth.uid() is null then
    raise exception 'Sign in to accept the invitation.' using errcode = '42501';
  end if;
  select * into found from public.workspace_invitations i
   where i.token_hash = internal.invitation_token_hash(p_token)
   for update;
  if found.id is null then
    raise exception 'This invitation link is not valid. Ask for a new invitation.' using errcode = '22023';
  end if;
  if found.revoked_at is not null then
    raise exception 'This invitation was revoked.' using errcode = '22023';
  end if;
  if found.accepted_at is not null then
    raise exception 'This invitation was already used.' using errcode = '22023';
  end if;
  if found.expires_at <= internal.now() then
    raise exception 'This invitation has expired. Ask for a new invitation.' using errcode = '22023';
  end if;
  select lower(u.email) into my_email from auth.users u where u.id = auth.uid();
  if my_email is distinct from found.email then
    raise exception 'This invitation was sent to another e-mail address. Sign in with that address to accept it.' using errcode = '42501';
  end if;
  -- Someone who is already a member keeps the role they have; the invitation is used up either way.
  insert into public.workspace_members (workspace_id, user_id, role)
  values (found.workspace_id, auth.uid(), found.role)
  on conflict (workspace_id, user_id) do nothing;
  update public.workspace_invitations set accepted_at = internal.now(), accepted_by = auth.uid() where id = found.id;
  -- Onboarding asks about a customer's own outreach and plan; someone joining a team skips it.
  update public.user_profiles
     set active_workspace_id = found.workspace_id, onboarding_completed = true, post_onboarding = true
   where id = auth.uid();
  return found.workspace_id;
end
$function$;

REVOKE ALL ON FUNCTION "public"."accept_invitation"(text) FROM PUBLIC, "anon";

CREATE OR REPLACE FUNCTION public.change_member_role (
  p_workspace_id uuid,
  p_user_id      uuid,
  p_role         public.workspace_role
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  mine public.workspace_role := internal.require_member_role(p_workspace_id, '{owner,admin}');
  theirs public.workspace_role;
begin
  select m.role into theirs from public.workspace_members m where m.workspace_id = p_workspace_id and m.user_id = p_user_id;
  if theirs is null then
    raise exception 'This person is not a member of this workspace.' using errcode = '22023';
  end if;
  if p_role is null then
    raise exception 'Choose a role' using errcode = '22023';
  end if;
  if (theirs = 'owner' or p_role = 'owner') and mine <> 'owner' then
    raise exception 'Your role in this workspace does not allow this.' using errcode = '42501';
  end if;
  if p_role <> 'owner' then
    perform internal.refuse_losing_last_owner(p_workspace_id, p_user_id);
  end if;
  update public.workspace_members set role = p_role where workspace_id = p_workspace_id and user_id = p_user_id;
end
$function$;

REVOKE ALL ON FUNCTION "public"."change_member_role"(uuid, uuid, public.workspace_role) FROM PUBLIC, "anon";

CREATE OR REPLACE FUNCTION public.delete_workspace (
  p_workspace_id uuid,
  p_confirm_name text
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  perform internal.require_member_role(p_workspace_id, '{owner}');
  if p_confirm_name is distinct from (select w.name from public.workspaces w where w.id = p_workspace_id) then
    raise exception 'Type the workspace name exactly to delete it.' using errcode = '22023';
  end if;
  if (select count(*) from public.workspace_members m where m.user_id = auth.uid()) <= 1 then
    raise exception 'You cannot delete the only workspace you belong to.' using errcode = '22023';
  end if;
  -- Everything the workspace owns goes with it (on delete cascade); whoever had it active falls back
  -- to another of their workspaces on their next request (internal.active_workspace_of).
  delete from public.workspaces where id = p_workspace_id;
end
$function$;

REVOKE ALL ON FUNCTION "public"."delete_workspace"(uuid, text) FROM PUBLIC, "anon";

CREATE OR REPLACE FUNCTION public.invite_member (
  p_workspace_id uuid,
  p_email        text,
  p_role         public.workspace_role
)
  RETURNS TABLE (
    invitation_id uuid,
    email         text,
    token         text,
    expires_at    timestamp with time zone
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  clean text := lower(btrim(coalesce(p_email, '')));
  new_token text := encode(extensions.gen_random_bytes(32), 'hex');
  created uuid;
begin
  perform internal.require_member_role(p_workspace_id, '{owner,admin}');
  if char_length(clean) > 254 or clean !~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$' then
    raise exception 'Enter a valid e-mail address' using errcode = '22023';
  end if;
  if p_role is null or p_role = 'owner' then
    raise exception 'Invite as admin, editor, agent or viewer; make someone the owner after they join.' using errcode = '22023';
  end if;
  if exists (select 1 from public.workspace_members m join auth.users u on u.id = m.user_id
              where m.workspace_id = p_workspace_id and lower(u.email) = clean) then
    raise exception 'This person is already a member of this workspace.' using errcode = '23505';
  end if;
  if exists (select 1 from public.workspace_invitations i
              where i.workspace_id = p_workspace_id and i.email = clean
                and i.accepted_at is null and i.revoked_at is null and i.expires_at > internal.now()) then
    raise exception 'This e-mail address already has a pending invitation. Resend it instead.' using errcode = '23505';
  end if;
  insert into public.workspace_invitations (workspace_id, email, role, invited_by, token_hash, created_at, expires_at, last_sent_at)
  values (p_workspace_id, clean, p_role, auth.uid(), internal.invitation_token_hash(new_token), internal.now(),
          internal.now() + interval '7 days', internal.now())
  returning id into created;
  return query select created, clean, new_token, internal.now() + interval '7 days';
end
$function$;

REVOKE ALL ON FUNCTION "public"."invite_member"(uuid, text, public.workspace_role) FROM PUBLIC, "anon";

CREATE OR REPLACE FUNCTION public.leave_workspace (
  p_workspace_id uuid
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  perform internal.require_member_role(p_workspace_id, '{owner,admin,editor,agent,viewer}');
  if (select count(*) from public.workspace_members m where m.user_id = auth.uid()) <= 1 then
    raise exception 'You cannot leave the only workspace you belong to.' using errcode = '22023';
  end if;
  perform internal.refuse_losing_last_owner(p_workspace_id, auth.uid());
  delete from public.workspace_members where workspace_id = p_workspace_id and user_id = auth.uid();
end
$function$;

REVOKE ALL ON FUNCTION "public"."leave_workspace"(uuid) FROM PUBLIC, "anon";

CREATE OR REPLACE FUNCTION public.remove_member (
  p_workspace_id uuid,
  p_user_id      uuid
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  mine public.workspace_role := internal.require_member_role(p_workspace_id, '{owner,admin}');
  theirs public.workspace_role;
begin
  select m.role into theirs from public.workspace_members m where m.workspace_id = p_workspace_id and m.user_id = p_user_id;
  if theirs is null then
    raise exception 'This person is not a member of this workspace.' using errcode = '22023';
  end if;
  if theirs = 'owner' and mine <> 'owner' then
    raise exception 'Your role in this workspace does not allow this.' using errcode = '42501';
  end if;
  perform internal.refuse_losing_last_owner(p_workspace_id, p_user_id);
  -- Policies read membership on every request, so the removed person's next request is refused.
  delete from public.workspace_members where workspace_id = p_workspace_id and user_id = p_user_id;
end
$function$;

REVOKE ALL ON FUNCTION "public"."remove_member"(uuid, uuid) FROM PUBLIC, "anon";

CREATE OR REPLACE FUNCTION public.rename_workspace (
  p_workspace_id uuid,
  p_name         text
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  clean text := btrim(coalesce(p_name, ''));
begin
  perform internal.require_member_role(p_workspace_id, '{owner,admin}');
  if clean = '' then
    raise exception 'Workspace name is required' using errcode = '22023';
  end if;
  if char_length(clean) > 60 then
    raise exception 'Workspace name must be 60 characters or less' using errcode = '22023';
  end if;
  update public.workspaces set name = clean where id = p_workspace_id;
end
$function$;

REVOKE ALL ON FUNCTION "public"."rename_workspace"(uuid, text) FROM PUBLIC, "anon";

CREATE OR REPLACE FUNCTION public.resend_invitation (
  p_invitation_id uuid
)
  RETURNS TABLE (
    invitation_id uuid,
    email         text,
    token         text,
    expires_at    timestamp with time zone
  )
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  found public.workspace_invitations%rowtype;
begin
  select * into found from public.workspace_invitations i where i.id = p_invitation_id;
  perform internal.require_member_role(found.workspace_id, '{owner,admin}');
  if found.accepted_at is not null then
    raise exception 'This invitation was already used.' using errcode = '22023';
  end if;
  if found.revoked_at is not null then
    raise exception 'This invitation was revoked.' using errcode = '22023';
  end if;
  return query
    select found.id, found.email, internal.issue_invitation_token(found.id), internal.now() + interval '7 days';
end
$function$;

REVOKE ALL ON FUNCTION "public"."resend_invitation"(uuid) FROM PUBLIC, "anon";

CREATE OR REPLACE FUNCTION public.revoke_invitation (
  p_invitation_id uuid
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  found public.workspace_invitations%rowtype;
begin
  select * into found from public.workspace_invitations i where i.id = p_invitation_id;
  perform internal.require_member_role(found.workspace_id, '{owner,admin}');
  if found.accepted_at is not null then
    raise exception 'This invitation was already used.' using errcode = '22023';
  end if;
  update public.workspace_invitations set revoked_at = coalesce(revoked_at, internal.now()) where id = p_invitation_id;
end
$function$;

REVOKE ALL ON FUNCTION "public"."revoke_invitation"(uuid) FROM PUBLIC, "anon";

CREATE OR REPLACE FUNCTION public.transfer_ownership (
  p_workspace_id uuid,
  p_user_id      uuid
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  perform internal.require_member_role(p_workspace_id, '{owner}');
  if p_user_id = auth.uid() then
    raise exception 'Choose another member to make the owner.' using errcode = '22023';
  end if;
  if not exists (select 1 from public.workspace_members m where m.workspace_id = p_workspace_id and m.user_id = p_user_id) then
    raise exception 'This person is not a member of this workspace.' using errcode = '22023';
  end if;
  update public.workspace_members set role = 'owner' where workspace_id = p_workspace_id and user_id = p_user_id;
  update public.workspace_members set role = 'admin' where workspace_id = p_workspace_id and user_id = auth.uid();
end
$function$;

REVOKE ALL ON FUNCTION "public"."transfer_ownership"(uuid, uuid) FROM PUBLIC, "anon";

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
     order by m.role, lower(coalesce(p.full_name, u.email)), m.user_id;
end
$function$;

REVOKE ALL ON FUNCTION "public"."workspace_member_list"(uuid) FROM PUBLIC, "anon";

ALTER TABLE "public"."workspace_invitations"
  ADD CONSTRAINT "workspace_invitations_accepted_by_fkey" FOREIGN KEY (accepted_by) REFERENCES auth.users(id) ON DELETE SET NULL;

ALTER TABLE "public"."workspace_invitations"
  ADD CONSTRAINT "workspace_invitations_invited_by_fkey" FOREIGN KEY (invited_by) REFERENCES auth.users(id) ON DELETE SET NULL;

ALTER TABLE "public"."workspace_invitations"
  ADD CONSTRAINT "workspace_invitations_workspace_id_fkey" FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

CREATE INDEX workspace_invitations_workspace_id_idx ON public.workspace_invitations USING btree (workspace_id);

CREATE POLICY "Owners and admins can read their workspace's invitations" ON "public"."workspace_invitations"
  FOR SELECT
  TO "authenticated"
  USING (internal.has_role_on_workspace(workspace_id, '{owner,admin}'::public.workspace_role[]));

COMMENT ON COLUMN "public"."workspace_invitations"."token_hash" IS 'Hex SHA-256 of the token in the invitation link; the token itself is mailed once and never stored.';

COMMENT ON FUNCTION "internal"."invitation_token_hash"(text) IS 'The stored form of an invitation token: hex SHA-256.';

COMMENT ON FUNCTION "internal"."issue_invitation_token"(uuid) IS 'Gives an invitation a new random token (returned once, stored hashed) valid for 7 days from now; the previous link stops working.';

COMMENT ON FUNCTION "internal"."refuse_losing_last_owner"(uuid, uuid) IS 'Raises the last-owner error when p_user_id is the workspace''s only owner: called before they leave, are removed or are demoted.';

COMMENT ON FUNCTION "internal"."require_member_role"(uuid, public.workspace_role[]) IS 'The member RPCs'' gate: the caller''s role in the workspace, or 42501 with the spec''s words when they are not a member or their role is not one of p_roles.';

COMMENT ON FUNCTION "public"."accept_invitation"(text) IS 'Joins the invitation''s workspace with its role and switches to it: one use, unexpired, unrevoked, and only for the invited e-mail address.';

COMMENT ON FUNCTION "public"."change_member_role"(uuid, uuid, public.workspace_role) IS 'Changes a member''s role (owner or admin); only an owner makes or unmakes owners, and the last owner stays one.';

COMMENT ON FUNCTION "public"."delete_workspace"(uuid, text) IS 'Deletes a workspace and everything it owns (owner only; the typed name must match; not the caller''s only workspace).';

COMMENT ON FUNCTION "public"."invite_member"(uuid, text, public.workspace_role) IS 'Invites an e-mail address with a role other than owner (owner or admin). Returns the link''s token once, for the mail; refuses members and a pending duplicate.';

COMMENT ON FUNCTION "public"."leave_workspace"(uuid) IS 'The caller leaves a workspace (never as its last owner, never their only workspace).';

COMMENT ON FUNCTION "public"."remove_member"(uuid, uuid) IS 'Removes a member (owner or admin; only an owner removes an owner; never the last owner). Their access ends with their next request.';

COMMENT ON FUNCTION "public"."rename_workspace"(uuid, text) IS 'Renames a workspace (owner or admin; 1-60 characters, trimmed).';

COMMENT ON FUNCTION "public"."resend_invitation"(uuid) IS 'A pending (or expired) invitation gets a new token and 7 more days; the old link stops working (owner or admin).';

COMMENT ON FUNCTION "public"."revoke_invitation"(uuid) IS 'Revokes a pending invitation so its link no longer works (owner or admin).';

COMMENT ON FUNCTION "public"."transfer_ownership"(uuid, uuid) IS 'The owner hands the workspace to another member: they become owner, the caller admin (owner only).';

COMMENT ON FUNCTION "public"."workspace_member_list"(uuid) IS 'A workspace''s members with name, e-mail (from auth.users), role and when they joined; members only.';

COMMENT ON TABLE "public"."workspace_invitations" IS 'Invitations by e-mail to join a workspace with a role (never owner). One use, 7 days, revocable. Only a SHA-256 hash of the link''s token is kept, so a leaked table gives no working link. Written only by the member RPCs.';

REVOKE ALL ON FUNCTION "internal"."invitation_token_hash"(text) FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."issue_invitation_token"(uuid) FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."refuse_losing_last_owner"(uuid, uuid) FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."require_member_role"(uuid, public.workspace_role[]) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "public"."accept_invitation"(text) TO "authenticated";

REVOKE ALL ON FUNCTION "public"."accept_invitation"(text) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."accept_invitation"(text) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."accept_invitation"(text) TO "service_role";

GRANT EXECUTE ON FUNCTION "public"."change_member_role"(uuid, uuid, public.workspace_role) TO "authenticated";

REVOKE ALL ON FUNCTION "public"."change_member_role"(uuid, uuid, public.workspace_role) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."change_member_role"(uuid, uuid, public.workspace_role) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."change_member_role"(uuid, uuid, public.workspace_role) TO "service_role";

GRANT EXECUTE ON FUNCTION "public"."delete_workspace"(uuid, text) TO "authenticated";

REVOKE ALL ON FUNCTION "public"."delete_workspace"(uuid, text) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."delete_workspace"(uuid, text) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."delete_workspace"(uuid, text) TO "service_role";

GRANT EXECUTE ON FUNCTION "public"."invite_member"(uuid, text, public.workspace_role) TO "authenticated";

REVOKE ALL ON FUNCTION "public"."invite_member"(uuid, text, public.workspace_role) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."invite_member"(uuid, text, public.workspace_role) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."invite_member"(uuid, text, public.workspace_role) TO "service_role";

GRANT EXECUTE ON FUNCTION "public"."leave_workspace"(uuid) TO "authenticated";

REVOKE ALL ON FUNCTION "public"."leave_workspace"(uuid) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."leave_workspace"(uuid) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."leave_workspace"(uuid) TO "service_role";

GRANT EXECUTE ON FUNCTION "public"."remove_member"(uuid, uuid) TO "authenticated";

REVOKE ALL ON FUNCTION "public"."remove_member"(uuid, uuid) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."remove_member"(uuid, uuid) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."remove_member"(uuid, uuid) TO "service_role";

GRANT EXECUTE ON FUNCTION "public"."rename_workspace"(uuid, text) TO "authenticated";

REVOKE ALL ON FUNCTION "public"."rename_workspace"(uuid, text) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."rename_workspace"(uuid, text) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."rename_workspace"(uuid, text) TO "service_role";

GRANT EXECUTE ON FUNCTION "public"."resend_invitation"(uuid) TO "authenticated";

REVOKE ALL ON FUNCTION "public"."resend_invitation"(uuid) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."resend_invitation"(uuid) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."resend_invitation"(uuid) TO "service_role";

GRANT EXECUTE ON FUNCTION "public"."revoke_invitation"(uuid) TO "authenticated";

REVOKE ALL ON FUNCTION "public"."revoke_invitation"(uuid) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."revoke_invitation"(uuid) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."revoke_invitation"(uuid) TO "service_role";

GRANT EXECUTE ON FUNCTION "public"."transfer_ownership"(uuid, uuid) TO "authenticated";

REVOKE ALL ON FUNCTION "public"."transfer_ownership"(uuid, uuid) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."transfer_ownership"(uuid, uuid) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."transfer_ownership"(uuid, uuid) TO "service_role";

GRANT EXECUTE ON FUNCTION "public"."workspace_member_list"(uuid) TO "authenticated";

REVOKE ALL ON FUNCTION "public"."workspace_member_list"(uuid) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."workspace_member_list"(uuid) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."workspace_member_list"(uuid) TO "service_role";

REVOKE ALL ON TABLE "public"."workspace_invitations" FROM "authenticated";

GRANT SELECT ON TABLE "public"."workspace_invitations" TO "authenticated";

REVOKE ALL ON TABLE "public"."workspace_invitations" FROM "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."workspace_invitations" TO "postgres";

GRANT DELETE, INSERT, REFERENCES, SELECT, TRIGGER, TRUNCATE, UPDATE ON TABLE "public"."workspace_invitations" TO "service_role";
