-- Workspaces: the unit that owns what a customer has. Until now every row belonged to one person
-- (user_id, and every policy asked auth.uid()); an agency with ten clients needed ten logins. A
-- workspace now owns each tenant row (workspace_id), people join it as members with one role, and
-- each person works in one active workspace at a time (remembered on their profile).
--
-- Every existing customer becomes the owner of a personal workspace whose id is their user id, so
-- each row's workspace is its user_id: nothing is copied, nothing is lost. Rows inserted without a
-- workspace take their parent's (a campaign's lead, an account's thread) or, for top-level rows,
-- the creator's active workspace, so code that does not name the workspace yet keeps working.

SET local check_function_bodies = off;

CREATE TYPE public.workspace_role AS ENUM ('owner', 'admin', 'editor', 'agent', 'viewer');
COMMENT ON TYPE public.workspace_role IS
  'owner: billing, deleting the workspace, ownership; admin: members and everything else; editor: accounts, scraping, campaigns, automations, inbox; agent: the inbox only; viewer: read-only dashboards and analytics.';

CREATE TABLE public.workspaces (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL,
  created_by uuid,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  updated_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT workspaces_pkey PRIMARY KEY (id),
  CONSTRAINT workspaces_name_check CHECK (((char_length(btrim(name)) >= 1) AND (char_length(name) <= 60))),
  CONSTRAINT workspaces_created_by_fkey FOREIGN KEY (created_by) REFERENCES auth.users(id) ON DELETE SET NULL
);
COMMENT ON TABLE public.workspaces IS
  'What owns a customer''s accounts, leads, campaigns, inbox and plan. A person''s personal workspace has their user id as its id.';

CREATE TABLE public.workspace_members (
  workspace_id uuid NOT NULL,
  user_id uuid NOT NULL,
  role public.workspace_role NOT NULL,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT workspace_members_pkey PRIMARY KEY (workspace_id, user_id),
  CONSTRAINT workspace_members_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE,
  CONSTRAINT workspace_members_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
COMMENT ON TABLE public.workspace_members IS
  'Who belongs to which workspace, with one role each. Policies read it on every request, so removing a member cuts their access at once.';
CREATE INDEX workspace_members_user_id_idx ON public.workspace_members USING btree (user_id);

ALTER TABLE public.user_profiles ADD COLUMN active_workspace_id uuid;
ALTER TABLE public.user_profiles ADD CONSTRAINT user_profiles_active_workspace_id_fkey
  FOREIGN KEY (active_workspace_id) REFERENCES public.workspaces(id) ON DELETE SET NULL;
COMMENT ON COLUMN public.user_profiles.active_workspace_id IS
  'The workspace the person last switched to; what they see and create is that workspace''s (set by set_active_workspace).';

CREATE FUNCTION internal.active_workspace_of(p_user uuid)
  RETURNS uuid
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
AS $function$
  select coalesce(
    (select p.active_workspace_id
       from public.user_profiles p
       join public.workspace_members m on m.workspace_id = p.active_workspace_id and m.user_id = p.id
      where p.id = p_user),
    (select m.workspace_id
       from public.workspace_members m
      where m.user_id = p_user
      order by (m.workspace_id = p_user) desc, m.created_at, m.workspace_id
      limit 1)
  )
$function$;
COMMENT ON FUNCTION internal.active_workspace_of(uuid) IS
  'The workspace a person works in: the one they switched to while they are still a member, else their personal one, else the first they joined; null when they belong to none.';

CREATE FUNCTION internal.active_workspace_id()
  RETURNS uuid
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
AS $function$
  select internal.active_workspace_of(auth.uid())
$function$;
COMMENT ON FUNCTION internal.active_workspace_id() IS
  'The caller''s active workspace (internal.active_workspace_of). Policies call it once per statement as (select internal.active_workspace_id()).';

CREATE FUNCTION internal.active_workspace_with_role(p_roles public.workspace_role[])
  RETURNS uuid
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
AS $function$
  select m.workspace_id
    from public.workspace_members m
   where m.workspace_id = internal.active_workspace_of(auth.uid())
     and m.user_id = auth.uid()
     and m.role = any (p_roles)
$function$;
COMMENT ON FUNCTION internal.active_workspace_with_role(public.workspace_role[]) IS
  'The one rule every tenant policy asks: the caller''s active workspace when their role there is one of p_roles, else null (no row matches). Policies call it once per statement: workspace_id = (select internal.active_workspace_with_role(...)). Membership is read on every request, so a removed member loses access at once.';

CREATE FUNCTION internal.workspace_role(p_workspace_id uuid)
  RETURNS public.workspace_role
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
AS $function$
  select m.role from public.workspace_members m
   where m.workspace_id = p_workspace_id and m.user_id = auth.uid()
$function$;
COMMENT ON FUNCTION internal.workspace_role(uuid) IS 'The caller''s role in a workspace; null when not a member.';

CREATE FUNCTION internal.has_role_on_workspace(p_workspace_id uuid, p_roles public.workspace_role[] DEFAULT NULL::public.workspace_role[])
  RETURNS boolean
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
AS $function$
  select exists (
    select 1 from public.workspace_members m
     where m.workspace_id = p_workspace_id
       and m.user_id = auth.uid()
       and (p_roles is null or m.role = any (p_roles))
  )
$function$;
COMMENT ON FUNCTION internal.has_role_on_workspace(uuid, public.workspace_role[]) IS
  'True when the caller is a member of the workspace (with one of the roles, when given). The one rule policies and functions ask.';

CREATE FUNCTION internal.workspace_for_creator(p_user uuid)
  RETURNS uuid
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
AS $function$
  select internal.active_workspace_of(p_user)
$function$;
COMMENT ON FUNCTION internal.workspace_for_creator(uuid) IS
  'A top-level row inserted without a workspace belongs to its creator''s active workspace.';

CREATE FUNCTION internal.fill_workspace_id_from_creator()
  RETURNS trigger
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
AS $function$
begin
  new.workspace_id := coalesce(
    internal.workspace_for_creator(new.user_id)
  );
  return new;
end
$function$;
COMMENT ON FUNCTION internal.fill_workspace_id_from_creator() IS 'BEFORE INSERT when workspace_id is not given: the creator''s active workspace.';
REVOKE ALL ON FUNCTION internal.fill_workspace_id_from_creator() FROM PUBLIC;

CREATE FUNCTION internal.fill_workspace_id_from_account()
  RETURNS trigger
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
AS $function$
begin
  new.workspace_id := coalesce(
    (select x.workspace_id from public.social_accounts x where x.id = new.account_id),
    internal.workspace_for_creator(new.user_id)
  );
  return new;
end
$function$;
COMMENT ON FUNCTION internal.fill_workspace_id_from_account() IS 'BEFORE INSERT when workspace_id is not given: the account''s workspace, else the creator''s active one.';
REVOKE ALL ON FUNCTION internal.fill_workspace_id_from_account() FROM PUBLIC;

CREATE FUNCTION internal.fill_workspace_id_from_automation()
  RETURNS trigger
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
AS $function$
begin
  new.workspace_id := coalesce(
    (select x.workspace_id from public.instagram_automations x where x.id = new.automation_id),
    internal.workspace_for_creator(new.user_id)
  );
  return new;
end
$function$;
COMMENT ON FUNCTION internal.fill_workspace_id_from_automation() IS 'BEFORE INSERT when workspace_id is not given: the automation''s workspace, else the creator''s active one.';
REVOKE ALL ON FUNCTION internal.fill_workspace_id_from_automation() FROM PUBLIC;

CREATE FUNCTION internal.fill_workspace_id_from_automation_run()
  RETURNS trigger
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
AS $function$
begin
  new.workspace_id := coalesce(
    (select x.workspace_id from public.instagram_automation_runs x where x.id = new.run_id),
    internal.workspace_for_creator(new.user_id)
  );
  return new;
end
$function$;
COMMENT ON FUNCTION internal.fill_workspace_id_from_automation_run() IS 'BEFORE INSERT when workspace_id is not given: the automation run''s workspace, else the creator''s active one.';
REVOKE ALL ON FUNCTION internal.fill_workspace_id_from_automation_run() FROM PUBLIC;

CREATE FUNCTION internal.fill_workspace_id_from_subscription()
  RETURNS trigger
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
AS $function$
begin
  new.workspace_id := coalesce(
    (select x.workspace_id from public.subscriptions x where x.id = new.subscription_id),
    internal.workspace_for_creator(new.user_id)
  );
  return new;
end
$function$;
COMMENT ON FUNCTION internal.fill_workspace_id_from_subscription() IS 'BEFORE INSERT when workspace_id is not given: the subscription''s workspace, else the creator''s active one.';
REVOKE ALL ON FUNCTION internal.fill_workspace_id_from_subscription() FROM PUBLIC;

CREATE FUNCTION internal.fill_workspace_id_from_scraping_campaign()
  RETURNS trigger
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
AS $function$
begin
  new.workspace_id := coalesce(
    (select x.workspace_id from public.scraping_campaigns x where x.id = new.scraping_campaign_id),
    internal.workspace_for_creator(new.user_id)
  );
  return new;
end
$function$;
COMMENT ON FUNCTION internal.fill_workspace_id_from_scraping_campaign() IS 'BEFORE INSERT when workspace_id is not given: the scraping campaign''s workspace, else the creator''s active one.';
REVOKE ALL ON FUNCTION internal.fill_workspace_id_from_scraping_campaign() FROM PUBLIC;

CREATE FUNCTION internal.fill_workspace_id_from_lead_list()
  RETURNS trigger
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
AS $function$
begin
  new.workspace_id := coalesce(
    (select x.workspace_id from public.lead_lists x where x.id = new.lead_list_id),
    internal.workspace_for_creator(new.user_id)
  );
  return new;
end
$function$;
COMMENT ON FUNCTION internal.fill_workspace_id_from_lead_list() IS 'BEFORE INSERT when workspace_id is not given: the lead list''s workspace, else the creator''s active one.';
REVOKE ALL ON FUNCTION internal.fill_workspace_id_from_lead_list() FROM PUBLIC;

CREATE FUNCTION internal.fill_workspace_id_from_campaign()
  RETURNS trigger
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
AS $function$
begin
  new.workspace_id := coalesce(
    (select x.workspace_id from public.campaigns x where x.id = new.campaign_id),
    internal.workspace_for_creator(new.user_id)
  );
  return new;
end
$function$;
COMMENT ON FUNCTION internal.fill_workspace_id_from_campaign() IS 'BEFORE INSERT when workspace_id is not given: the campaign''s workspace, else the creator''s active one.';
REVOKE ALL ON FUNCTION internal.fill_workspace_id_from_campaign() FROM PUBLIC;

CREATE FUNCTION internal.fill_workspace_id_from_campaign_account()
  RETURNS trigger
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
AS $function$
begin
  new.workspace_id := coalesce(
    (select x.workspace_id from public.campaigns x where x.id = new.campaign_id),
    (select x.workspace_id from public.social_accounts x where x.id = new.account_id),
    internal.workspace_for_creator(new.user_id)
  );
  return new;
end
$function$;
COMMENT ON FUNCTION internal.fill_workspace_id_from_campaign_account() IS 'BEFORE INSERT when workspace_id is not given: the campaign''s, else the account''s workspace, else the creator''s active one.';
REVOKE ALL ON FUNCTION internal.fill_workspace_id_from_campaign_account() FROM PUBLIC;

CREATE FUNCTION internal.fill_workspace_id_from_thread()
  RETURNS trigger
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
AS $function$
begin
  new.workspace_id := coalesce(
    (select x.workspace_id from public.inbox_threads x where x.id = new.thread_id),
    internal.workspace_for_creator(new.user_id)
  );
  return new;
end
$function$;
COMMENT ON FUNCTION internal.fill_workspace_id_from_thread() IS 'BEFORE INSERT when workspace_id is not given: the thread''s workspace, else the creator''s active one.';
REVOKE ALL ON FUNCTION internal.fill_workspace_id_from_thread() FROM PUBLIC;

-- Every customer's personal workspace (id = their user id), owned by them and active.
INSERT INTO public.workspaces (id, name, created_by, created_at)
SELECT p.id,
       left(coalesce(nullif(btrim(p.business_name), ''), nullif(btrim(p.full_name), '') || '''s workspace', 'My workspace'), 60),
       p.id,
       p.created_at
  FROM public.user_profiles p;
INSERT INTO public.workspace_members (workspace_id, user_id, role, created_at)
SELECT p.id, p.id, 'owner', p.created_at FROM public.user_profiles p;
UPDATE public.user_profiles SET active_workspace_id = id;


-- public.social_accounts
ALTER TABLE public.social_accounts ADD COLUMN workspace_id uuid;
ALTER TABLE public.social_accounts DISABLE TRIGGER USER;
UPDATE public.social_accounts SET workspace_id = user_id;
ALTER TABLE public.social_accounts ENABLE TRIGGER USER;
ALTER TABLE public.social_accounts ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.social_accounts ADD CONSTRAINT social_accounts_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX social_accounts_workspace_id_idx ON public.social_accounts USING btree (workspace_id);
CREATE TRIGGER social_accounts_fill_workspace_id BEFORE INSERT ON public.social_accounts FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_creator();
COMMENT ON COLUMN public.social_accounts.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.x_oauth_requests
ALTER TABLE public.x_oauth_requests ADD COLUMN workspace_id uuid;
ALTER TABLE public.x_oauth_requests DISABLE TRIGGER USER;
UPDATE public.x_oauth_requests SET workspace_id = user_id;
ALTER TABLE public.x_oauth_requests ENABLE TRIGGER USER;
ALTER TABLE public.x_oauth_requests ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.x_oauth_requests ADD CONSTRAINT x_oauth_requests_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX x_oauth_requests_workspace_id_idx ON public.x_oauth_requests USING btree (workspace_id);
CREATE TRIGGER x_oauth_requests_fill_workspace_id BEFORE INSERT ON public.x_oauth_requests FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_creator();
COMMENT ON COLUMN public.x_oauth_requests.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- internal.instagram_oauth_states
ALTER TABLE internal.instagram_oauth_states ADD COLUMN workspace_id uuid;
ALTER TABLE internal.instagram_oauth_states DISABLE TRIGGER USER;
UPDATE internal.instagram_oauth_states SET workspace_id = user_id;
ALTER TABLE internal.instagram_oauth_states ENABLE TRIGGER USER;
ALTER TABLE internal.instagram_oauth_states ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE internal.instagram_oauth_states ADD CONSTRAINT instagram_oauth_states_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX instagram_oauth_states_workspace_id_idx ON internal.instagram_oauth_states USING btree (workspace_id);
CREATE TRIGGER instagram_oauth_states_fill_workspace_id BEFORE INSERT ON internal.instagram_oauth_states FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_creator();
COMMENT ON COLUMN internal.instagram_oauth_states.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.x_api_usage
ALTER TABLE public.x_api_usage ADD COLUMN workspace_id uuid;
ALTER TABLE public.x_api_usage DISABLE TRIGGER USER;
UPDATE public.x_api_usage SET workspace_id = user_id;
ALTER TABLE public.x_api_usage ENABLE TRIGGER USER;
ALTER TABLE public.x_api_usage ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.x_api_usage ADD CONSTRAINT x_api_usage_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX x_api_usage_workspace_id_idx ON public.x_api_usage USING btree (workspace_id);
CREATE TRIGGER x_api_usage_fill_workspace_id BEFORE INSERT ON public.x_api_usage FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_account();
COMMENT ON COLUMN public.x_api_usage.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.instagram_automations
ALTER TABLE public.instagram_automations ADD COLUMN workspace_id uuid;
ALTER TABLE public.instagram_automations DISABLE TRIGGER USER;
UPDATE public.instagram_automations SET workspace_id = user_id;
ALTER TABLE public.instagram_automations ENABLE TRIGGER USER;
ALTER TABLE public.instagram_automations ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.instagram_automations ADD CONSTRAINT instagram_automations_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX instagram_automations_workspace_id_idx ON public.instagram_automations USING btree (workspace_id);
CREATE TRIGGER instagram_automations_fill_workspace_id BEFORE INSERT ON public.instagram_automations FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_account();
COMMENT ON COLUMN public.instagram_automations.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.instagram_automation_runs
ALTER TABLE public.instagram_automation_runs ADD COLUMN workspace_id uuid;
ALTER TABLE public.instagram_automation_runs DISABLE TRIGGER USER;
UPDATE public.instagram_automation_runs SET workspace_id = user_id;
ALTER TABLE public.instagram_automation_runs ENABLE TRIGGER USER;
ALTER TABLE public.instagram_automation_runs ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.instagram_automation_runs ADD CONSTRAINT instagram_automation_runs_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX instagram_automation_runs_workspace_id_idx ON public.instagram_automation_runs USING btree (workspace_id);
CREATE TRIGGER instagram_automation_runs_fill_workspace_id BEFORE INSERT ON public.instagram_automation_runs FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_automation();
COMMENT ON COLUMN public.instagram_automation_runs.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.instagram_automation_followups
ALTER TABLE public.instagram_automation_followups ADD COLUMN workspace_id uuid;
ALTER TABLE public.instagram_automation_followups DISABLE TRIGGER USER;
UPDATE public.instagram_automation_followups SET workspace_id = user_id;
ALTER TABLE public.instagram_automation_followups ENABLE TRIGGER USER;
ALTER TABLE public.instagram_automation_followups ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.instagram_automation_followups ADD CONSTRAINT instagram_automation_followups_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX instagram_automation_followups_workspace_id_idx ON public.instagram_automation_followups USING btree (workspace_id);
CREATE TRIGGER instagram_automation_followups_fill_workspace_id BEFORE INSERT ON public.instagram_automation_followups FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_automation_run();
COMMENT ON COLUMN public.instagram_automation_followups.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.subscriptions
ALTER TABLE public.subscriptions ADD COLUMN workspace_id uuid;
ALTER TABLE public.subscriptions DISABLE TRIGGER USER;
UPDATE public.subscriptions SET workspace_id = user_id;
ALTER TABLE public.subscriptions ENABLE TRIGGER USER;
ALTER TABLE public.subscriptions ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.subscriptions ADD CONSTRAINT subscriptions_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX subscriptions_workspace_id_idx ON public.subscriptions USING btree (workspace_id);
CREATE TRIGGER subscriptions_fill_workspace_id BEFORE INSERT ON public.subscriptions FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_creator();
COMMENT ON COLUMN public.subscriptions.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.payments
ALTER TABLE public.payments ADD COLUMN workspace_id uuid;
ALTER TABLE public.payments DISABLE TRIGGER USER;
UPDATE public.payments SET workspace_id = user_id;
ALTER TABLE public.payments ENABLE TRIGGER USER;
ALTER TABLE public.payments ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.payments ADD CONSTRAINT payments_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX payments_workspace_id_idx ON public.payments USING btree (workspace_id);
CREATE TRIGGER payments_fill_workspace_id BEFORE INSERT ON public.payments FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_subscription();
COMMENT ON COLUMN public.payments.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.lead_lists
ALTER TABLE public.lead_lists ADD COLUMN workspace_id uuid;
ALTER TABLE public.lead_lists DISABLE TRIGGER USER;
UPDATE public.lead_lists SET workspace_id = user_id;
ALTER TABLE public.lead_lists ENABLE TRIGGER USER;
ALTER TABLE public.lead_lists ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.lead_lists ADD CONSTRAINT lead_lists_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX lead_lists_workspace_id_idx ON public.lead_lists USING btree (workspace_id);
CREATE TRIGGER lead_lists_fill_workspace_id BEFORE INSERT ON public.lead_lists FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_scraping_campaign();
COMMENT ON COLUMN public.lead_lists.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.scraping_campaigns
ALTER TABLE public.scraping_campaigns ADD COLUMN workspace_id uuid;
ALTER TABLE public.scraping_campaigns DISABLE TRIGGER USER;
UPDATE public.scraping_campaigns SET workspace_id = user_id;
ALTER TABLE public.scraping_campaigns ENABLE TRIGGER USER;
ALTER TABLE public.scraping_campaigns ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.scraping_campaigns ADD CONSTRAINT scraping_campaigns_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX scraping_campaigns_workspace_id_idx ON public.scraping_campaigns USING btree (workspace_id);
CREATE TRIGGER scraping_campaigns_fill_workspace_id BEFORE INSERT ON public.scraping_campaigns FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_creator();
COMMENT ON COLUMN public.scraping_campaigns.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.scraping_campaign_leads
ALTER TABLE public.scraping_campaign_leads ADD COLUMN workspace_id uuid;
ALTER TABLE public.scraping_campaign_leads DISABLE TRIGGER USER;
UPDATE public.scraping_campaign_leads SET workspace_id = user_id;
ALTER TABLE public.scraping_campaign_leads ENABLE TRIGGER USER;
ALTER TABLE public.scraping_campaign_leads ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.scraping_campaign_leads ADD CONSTRAINT scraping_campaign_leads_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX scraping_campaign_leads_workspace_id_idx ON public.scraping_campaign_leads USING btree (workspace_id);
CREATE TRIGGER scraping_campaign_leads_fill_workspace_id BEFORE INSERT ON public.scraping_campaign_leads FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_scraping_campaign();
COMMENT ON COLUMN public.scraping_campaign_leads.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.lead_list_members
ALTER TABLE public.lead_list_members ADD COLUMN workspace_id uuid;
ALTER TABLE public.lead_list_members DISABLE TRIGGER USER;
UPDATE public.lead_list_members SET workspace_id = user_id;
ALTER TABLE public.lead_list_members ENABLE TRIGGER USER;
ALTER TABLE public.lead_list_members ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.lead_list_members ADD CONSTRAINT lead_list_members_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX lead_list_members_workspace_id_idx ON public.lead_list_members USING btree (workspace_id);
CREATE TRIGGER lead_list_members_fill_workspace_id BEFORE INSERT ON public.lead_list_members FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_lead_list();
COMMENT ON COLUMN public.lead_list_members.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.campaigns
ALTER TABLE public.campaigns ADD COLUMN workspace_id uuid;
ALTER TABLE public.campaigns DISABLE TRIGGER USER;
UPDATE public.campaigns SET workspace_id = user_id;
ALTER TABLE public.campaigns ENABLE TRIGGER USER;
ALTER TABLE public.campaigns ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.campaigns ADD CONSTRAINT campaigns_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX campaigns_workspace_id_idx ON public.campaigns USING btree (workspace_id);
CREATE TRIGGER campaigns_fill_workspace_id BEFORE INSERT ON public.campaigns FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_creator();
COMMENT ON COLUMN public.campaigns.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.campaign_leads
ALTER TABLE public.campaign_leads ADD COLUMN workspace_id uuid;
ALTER TABLE public.campaign_leads DISABLE TRIGGER USER;
UPDATE public.campaign_leads SET workspace_id = user_id;
ALTER TABLE public.campaign_leads ENABLE TRIGGER USER;
ALTER TABLE public.campaign_leads ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.campaign_leads ADD CONSTRAINT campaign_leads_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX campaign_leads_workspace_id_idx ON public.campaign_leads USING btree (workspace_id);
CREATE TRIGGER campaign_leads_fill_workspace_id BEFORE INSERT ON public.campaign_leads FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_campaign();
COMMENT ON COLUMN public.campaign_leads.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.campaign_daily_stats
ALTER TABLE public.campaign_daily_stats ADD COLUMN workspace_id uuid;
ALTER TABLE public.campaign_daily_stats DISABLE TRIGGER USER;
UPDATE public.campaign_daily_stats SET workspace_id = user_id;
ALTER TABLE public.campaign_daily_stats ENABLE TRIGGER USER;
ALTER TABLE public.campaign_daily_stats ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.campaign_daily_stats ADD CONSTRAINT campaign_daily_stats_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX campaign_daily_stats_workspace_id_idx ON public.campaign_daily_stats USING btree (workspace_id);
CREATE TRIGGER campaign_daily_stats_fill_workspace_id BEFORE INSERT ON public.campaign_daily_stats FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_campaign();
COMMENT ON COLUMN public.campaign_daily_stats.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.dm_logs
ALTER TABLE public.dm_logs ADD COLUMN workspace_id uuid;
ALTER TABLE public.dm_logs DISABLE TRIGGER USER;
UPDATE public.dm_logs SET workspace_id = user_id;
ALTER TABLE public.dm_logs ENABLE TRIGGER USER;
ALTER TABLE public.dm_logs ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.dm_logs ADD CONSTRAINT dm_logs_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX dm_logs_workspace_id_idx ON public.dm_logs USING btree (workspace_id);
CREATE TRIGGER dm_logs_fill_workspace_id BEFORE INSERT ON public.dm_logs FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_campaign();
COMMENT ON COLUMN public.dm_logs.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.message_variants
ALTER TABLE public.message_variants ADD COLUMN workspace_id uuid;
ALTER TABLE public.message_variants DISABLE TRIGGER USER;
UPDATE public.message_variants SET workspace_id = user_id;
ALTER TABLE public.message_variants ENABLE TRIGGER USER;
ALTER TABLE public.message_variants ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.message_variants ADD CONSTRAINT message_variants_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX message_variants_workspace_id_idx ON public.message_variants USING btree (workspace_id);
CREATE TRIGGER message_variants_fill_workspace_id BEFORE INSERT ON public.message_variants FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_campaign();
COMMENT ON COLUMN public.message_variants.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.contact_ledger
ALTER TABLE public.contact_ledger ADD COLUMN workspace_id uuid;
ALTER TABLE public.contact_ledger DISABLE TRIGGER USER;
UPDATE public.contact_ledger SET workspace_id = user_id;
ALTER TABLE public.contact_ledger ENABLE TRIGGER USER;
ALTER TABLE public.contact_ledger ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.contact_ledger ADD CONSTRAINT contact_ledger_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX contact_ledger_workspace_id_idx ON public.contact_ledger USING btree (workspace_id);
CREATE TRIGGER contact_ledger_fill_workspace_id BEFORE INSERT ON public.contact_ledger FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_campaign_account();
COMMENT ON COLUMN public.contact_ledger.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.do_not_contact
ALTER TABLE public.do_not_contact ADD COLUMN workspace_id uuid;
ALTER TABLE public.do_not_contact DISABLE TRIGGER USER;
UPDATE public.do_not_contact SET workspace_id = user_id;
ALTER TABLE public.do_not_contact ENABLE TRIGGER USER;
ALTER TABLE public.do_not_contact ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.do_not_contact ADD CONSTRAINT do_not_contact_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX do_not_contact_workspace_id_idx ON public.do_not_contact USING btree (workspace_id);
CREATE TRIGGER do_not_contact_fill_workspace_id BEFORE INSERT ON public.do_not_contact FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_creator();
COMMENT ON COLUMN public.do_not_contact.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.opt_out_settings
ALTER TABLE public.opt_out_settings ADD COLUMN workspace_id uuid;
ALTER TABLE public.opt_out_settings DISABLE TRIGGER USER;
UPDATE public.opt_out_settings SET workspace_id = user_id;
ALTER TABLE public.opt_out_settings ENABLE TRIGGER USER;
ALTER TABLE public.opt_out_settings ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.opt_out_settings ADD CONSTRAINT opt_out_settings_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX opt_out_settings_workspace_id_idx ON public.opt_out_settings USING btree (workspace_id);
CREATE TRIGGER opt_out_settings_fill_workspace_id BEFORE INSERT ON public.opt_out_settings FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_creator();
COMMENT ON COLUMN public.opt_out_settings.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.inbox_threads
ALTER TABLE public.inbox_threads ADD COLUMN workspace_id uuid;
ALTER TABLE public.inbox_threads DISABLE TRIGGER USER;
UPDATE public.inbox_threads SET workspace_id = user_id;
ALTER TABLE public.inbox_threads ENABLE TRIGGER USER;
ALTER TABLE public.inbox_threads ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.inbox_threads ADD CONSTRAINT inbox_threads_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX inbox_threads_workspace_id_idx ON public.inbox_threads USING btree (workspace_id);
CREATE TRIGGER inbox_threads_fill_workspace_id BEFORE INSERT ON public.inbox_threads FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_account();
COMMENT ON COLUMN public.inbox_threads.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.inbox_messages
ALTER TABLE public.inbox_messages ADD COLUMN workspace_id uuid;
ALTER TABLE public.inbox_messages DISABLE TRIGGER USER;
UPDATE public.inbox_messages SET workspace_id = user_id;
ALTER TABLE public.inbox_messages ENABLE TRIGGER USER;
ALTER TABLE public.inbox_messages ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.inbox_messages ADD CONSTRAINT inbox_messages_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX inbox_messages_workspace_id_idx ON public.inbox_messages USING btree (workspace_id);
CREATE TRIGGER inbox_messages_fill_workspace_id BEFORE INSERT ON public.inbox_messages FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_thread();
COMMENT ON COLUMN public.inbox_messages.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.inbox_check_requests
ALTER TABLE public.inbox_check_requests ADD COLUMN workspace_id uuid;
ALTER TABLE public.inbox_check_requests DISABLE TRIGGER USER;
UPDATE public.inbox_check_requests SET workspace_id = user_id;
ALTER TABLE public.inbox_check_requests ENABLE TRIGGER USER;
ALTER TABLE public.inbox_check_requests ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.inbox_check_requests ADD CONSTRAINT inbox_check_requests_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX inbox_check_requests_workspace_id_idx ON public.inbox_check_requests USING btree (workspace_id);
CREATE TRIGGER inbox_check_requests_fill_workspace_id BEFORE INSERT ON public.inbox_check_requests FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_account();
COMMENT ON COLUMN public.inbox_check_requests.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.ai_usage
ALTER TABLE public.ai_usage ADD COLUMN workspace_id uuid;
ALTER TABLE public.ai_usage DISABLE TRIGGER USER;
UPDATE public.ai_usage SET workspace_id = user_id;
ALTER TABLE public.ai_usage ENABLE TRIGGER USER;
ALTER TABLE public.ai_usage ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.ai_usage ADD CONSTRAINT ai_usage_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX ai_usage_workspace_id_idx ON public.ai_usage USING btree (workspace_id);
CREATE TRIGGER ai_usage_fill_workspace_id BEFORE INSERT ON public.ai_usage FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_creator();
COMMENT ON COLUMN public.ai_usage.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- public.notifications
ALTER TABLE public.notifications ADD COLUMN workspace_id uuid;
ALTER TABLE public.notifications DISABLE TRIGGER USER;
UPDATE public.notifications SET workspace_id = user_id;
ALTER TABLE public.notifications ENABLE TRIGGER USER;
ALTER TABLE public.notifications ALTER COLUMN workspace_id SET NOT NULL, ALTER COLUMN workspace_id SET DEFAULT internal.active_workspace_id();
ALTER TABLE public.notifications ADD CONSTRAINT notifications_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;
CREATE INDEX notifications_workspace_id_idx ON public.notifications USING btree (workspace_id);
CREATE TRIGGER notifications_fill_workspace_id BEFORE INSERT ON public.notifications FOR EACH ROW WHEN ((new.workspace_id IS NULL)) EXECUTE FUNCTION internal.fill_workspace_id_from_creator();
COMMENT ON COLUMN public.notifications.workspace_id IS 'The workspace that owns the row. A person''s insert defaults to their active workspace; the service and the runner name it, or it is taken from the row''s parent (else the creator''s active workspace).';

-- New customers get their personal workspace with their profile.
CREATE OR REPLACE FUNCTION internal.create_profile_for_new_user()
  RETURNS trigger
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
AS $function$
declare
  full_name text := nullif(trim(coalesce(new.raw_user_meta_data ->> 'full_name', new.raw_user_meta_data ->> 'name')), '');
begin
  insert into public.workspaces (id, name, created_by)
  values (new.id, left(coalesce(full_name || '''s workspace', 'My workspace'), 60), new.id)
  on conflict (id) do nothing;
  insert into public.workspace_members (workspace_id, user_id, role)
  values (new.id, new.id, 'owner')
  on conflict (workspace_id, user_id) do nothing;
  insert into public.user_profiles (id, full_name, avatar_url, active_workspace_id)
  values (
    new.id,
    full_name,
    nullif(coalesce(new.raw_user_meta_data ->> 'avatar_url', new.raw_user_meta_data ->> 'picture'), ''),
    new.id
  )
  on conflict (id) do nothing;
  return new;
end
$function$;
COMMENT ON FUNCTION internal.create_profile_for_new_user() IS
  'AFTER INSERT on auth.users: creates the profile (full_name or Google''s name, avatar from user metadata) and the person''s personal workspace, which they own and work in.';

CREATE TRIGGER workspaces_set_updated_at BEFORE UPDATE ON public.workspaces FOR EACH ROW EXECUTE FUNCTION internal.set_updated_at();

ALTER TABLE public.workspaces ENABLE ROW LEVEL SECURITY;
CREATE POLICY "Members can read their workspaces" ON public.workspaces
  FOR SELECT TO authenticated
  USING (internal.has_role_on_workspace(id));
CREATE POLICY "The runner reads workspaces" ON public.workspaces
  FOR SELECT TO reachflow_runner
  USING (true);

ALTER TABLE public.workspace_members ENABLE ROW LEVEL SECURITY;
CREATE POLICY "Members can read their workspaces' members" ON public.workspace_members
  FOR SELECT TO authenticated
  USING (internal.has_role_on_workspace(workspace_id));
CREATE POLICY "The runner reads workspace members" ON public.workspace_members
  FOR SELECT TO reachflow_runner
  USING (true);

REVOKE ALL ON public.workspaces FROM anon;
REVOKE INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON public.workspaces FROM authenticated;
GRANT SELECT ON public.workspaces TO authenticated, reachflow_runner;
REVOKE ALL ON public.workspace_members FROM anon;
REVOKE INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON public.workspace_members FROM authenticated;
GRANT SELECT ON public.workspace_members TO authenticated, reachflow_runner;

REVOKE ALL ON FUNCTION internal.active_workspace_of(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION internal.active_workspace_of(uuid) TO service_role, reachflow_runner;
REVOKE ALL ON FUNCTION internal.active_workspace_id() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION internal.active_workspace_id() TO authenticated, service_role, reachflow_runner;
REVOKE ALL ON FUNCTION internal.active_workspace_with_role(public.workspace_role[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION internal.active_workspace_with_role(public.workspace_role[]) TO authenticated, service_role;
REVOKE ALL ON FUNCTION internal.workspace_role(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION internal.workspace_role(uuid) TO authenticated, service_role;
REVOKE ALL ON FUNCTION internal.has_role_on_workspace(uuid, public.workspace_role[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION internal.has_role_on_workspace(uuid, public.workspace_role[]) TO authenticated, service_role;
REVOKE ALL ON FUNCTION internal.workspace_for_creator(uuid) FROM PUBLIC;

-- Switching and creating ------------------------------------------------------------------------

CREATE FUNCTION public.my_workspaces()
  RETURNS TABLE (id uuid, name text, role public.workspace_role, is_active boolean, member_count integer)
  LANGUAGE sql
  STABLE
  SECURITY DEFINER
  SET search_path TO ''
AS $function$
  select w.id, w.name, m.role, w.id = internal.active_workspace_id(),
         (select count(*)::integer from public.workspace_members x where x.workspace_id = w.id)
    from public.workspace_members m
    join public.workspaces w on w.id = m.workspace_id
   where m.user_id = auth.uid()
   order by lower(w.name), w.id
$function$;
COMMENT ON FUNCTION public.my_workspaces() IS
  'The caller''s workspaces with their role, which one is active and how many members each has, by name.';

CREATE FUNCTION public.set_active_workspace(p_workspace_id uuid)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
AS $function$
begin
  if not internal.has_role_on_workspace(p_workspace_id) then
    raise exception 'You are not a member of this workspace.' using errcode = '42501';
  end if;
  update public.user_profiles set active_workspace_id = p_workspace_id where id = auth.uid();
end
$function$;
COMMENT ON FUNCTION public.set_active_workspace(uuid) IS
  'Switches the caller to a workspace they belong to (42501 otherwise); remembered on their profile.';

CREATE FUNCTION public.create_workspace(p_name text)
  RETURNS uuid
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
AS $function$
declare
  clean text := btrim(coalesce(p_name, ''));
  created uuid;
begin
  if auth.uid() is null then
    raise exception 'Sign in to create a workspace.' using errcode = '42501';
  end if;
  if clean = '' then
    raise exception 'Workspace name is required' using errcode = '22023';
  end if;
  if char_length(clean) > 60 then
    raise exception 'Workspace name must be 60 characters or less' using errcode = '22023';
  end if;
  insert into public.workspaces (name, created_by) values (clean, auth.uid()) returning id into created;
  insert into public.workspace_members (workspace_id, user_id, role) values (created, auth.uid(), 'owner');
  update public.user_profiles set active_workspace_id = created where id = auth.uid();
  return created;
end
$function$;
COMMENT ON FUNCTION public.create_workspace(text) IS
  'Creates a workspace (name 1-60 characters) owned by the caller and switches them to it.';

REVOKE ALL ON FUNCTION public.my_workspaces() FROM PUBLIC, anon;
GRANT EXECUTE ON FUNCTION public.my_workspaces() TO authenticated;
REVOKE ALL ON FUNCTION public.set_active_workspace(uuid) FROM PUBLIC, anon;
GRANT EXECUTE ON FUNCTION public.set_active_workspace(uuid) TO authenticated;
REVOKE ALL ON FUNCTION public.create_workspace(text) FROM PUBLIC, anon;
GRANT EXECUTE ON FUNCTION public.create_workspace(text) TO authenticated;
