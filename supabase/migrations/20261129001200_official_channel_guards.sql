-- Official accounts cannot do browser work: an official Instagram account cannot start DM campaigns (the
-- API only answers people who wrote first) and no official account can scrape (that needs the browser).

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION internal.check_campaign_channel()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  -- Instagram's API lets an official account answer people who wrote first, never open a cold
  -- conversation, and the runner has no browser sign-in for it: a DM campaign could only fail.
  if exists (select 1 from public.social_accounts a join public.platforms p on p.id = a.platform_id
              where a.id = new.account_id and a.connection = 'official' and p.name = 'instagram') then
    raise exception 'This Instagram account is connected through the official API, which only answers people who write first: use its automations, or choose a browser-connected account for DM campaigns' using errcode = '22023';
  end if;
  return new;
end;
$function$;

CREATE OR REPLACE FUNCTION internal.check_scraping_channel()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  -- Scraping reads profiles and followers in the account's browser; an official account has none.
  if exists (select 1 from public.social_accounts a where a.id = new.account_id and a.connection = 'official') then
    raise exception 'This account is connected through the official API, which cannot search for leads: choose a browser-connected account for scraping' using errcode = '22023';
  end if;
  return new;
end;
$function$;

CREATE TRIGGER campaigns_check_channel
  BEFORE INSERT OR UPDATE OF account_id ON public.campaigns
  FOR EACH ROW
  EXECUTE FUNCTION internal.check_campaign_channel();

CREATE TRIGGER scraping_campaigns_check_channel
  BEFORE INSERT OR UPDATE OF account_id ON public.scraping_campaigns
  FOR EACH ROW
  EXECUTE FUNCTION internal.check_scraping_channel();

COMMENT ON FUNCTION "internal"."check_campaign_channel"() IS 'BEFORE INSERT or UPDATE of account_id on campaigns: refuses an official Instagram account (the API cannot start a conversation).';

COMMENT ON FUNCTION "internal"."check_scraping_channel"() IS 'BEFORE INSERT or UPDATE of account_id on scraping_campaigns: refuses an official-API account (scraping needs the browser).';

REVOKE ALL ON FUNCTION "internal"."check_campaign_channel"() FROM PUBLIC;

REVOKE ALL ON FUNCTION "internal"."check_scraping_channel"() FROM PUBLIC;
