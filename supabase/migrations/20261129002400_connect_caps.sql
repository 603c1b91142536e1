-- Caps on OAuth connects per customer: X had none (30 quick starts left 30 sealed requests and made
-- 30 calls to X), now at most 5 within a request's 10 minutes; Instagram's waiting states go from
-- 10 to 5. Each is counted under a per-customer advisory lock so parallel starts cannot all slip
-- under it, and the error's hint lets the functions answer 429. Instagram's state hash now also
-- covers the starting browser's key (computed by the function; the comments say so).
-- Written by `npm run db:diff`.

SET local check_function_bodies = off;

CREATE OR REPLACE FUNCTION internal.cap_pending_x_connects()
  RETURNS TRIGGER
  LANGUAGE plpgsql
  SET search_path TO ''
  AS $function$
begin
  -- one customer's starts take turns, so parallel clicks cannot all see room under the cap
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('x_connect:' || new.user_id::text, 0));
  if (select count(*) from public.x_oauth_requests r where r.user_id = new.user_id and r.expires_at > now()) >= 5 then
    raise exception 'Too many X connections started. Finish one on X, or wait 10 minutes and start again.'
      using errcode = 'P0001', hint = 'too_many_connects';
  end if;
  return new;
end
$function$;

CREATE OR REPLACE FUNCTION public.begin_instagram_connect (
  p_user_id    uuid,
  p_state_hash text,
  p_expires_at timestamp with time zone
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
begin
  -- one customer's starts take turns, so parallel clicks cannot all see room under the cap
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('instagram_connect:' || p_user_id::text, 0));
  delete from internal.instagram_oauth_states s where s.expires_at <= internal.now();
  -- a customer clicking Connect again and again keeps a handful of live states, not a pile
  if (select count(*) from internal.instagram_oauth_states s where s.user_id = p_user_id) >= 5 then
    raise exception 'Too many Instagram connections started. Wait a few minutes and try again.' using errcode = 'P0001', hint = 'too_many_connects';
  end if;
  insert into internal.instagram_oauth_states (state_hash, user_id, expires_at)
  values (p_state_hash, p_user_id, p_expires_at);
end
$function$;

CREATE INDEX x_oauth_requests_user_id_idx ON public.x_oauth_requests USING btree (user_id);

CREATE TRIGGER x_oauth_requests_cap_pending
  BEFORE INSERT ON public.x_oauth_requests
  FOR EACH ROW
  EXECUTE FUNCTION internal.cap_pending_x_connects();

COMMENT ON FUNCTION "internal"."cap_pending_x_connects"() IS 'At most 5 X connects per customer within a request''s lifetime (used ones count until they expire): the api function stores the request before it calls X, so the cap also bounds the calls to X.';

COMMENT ON FUNCTION "public"."begin_instagram_connect"(uuid, text, timestamp with time zone) IS 'Service role only (the instagram-official function, for the signed-in caller): remembers the hash of a new OAuth state and the starting browser''s key until it expires; at most 5 wait per customer.';

COMMENT ON TABLE "internal"."instagram_oauth_states" IS 'Connects in progress: the SHA-256 of the OAuth state handed to Instagram and the key of the browser that started it, bound to the signed-in customer who started it; used once, within its expiry, from that browser.';

REVOKE ALL ON FUNCTION "internal"."cap_pending_x_connects"() FROM PUBLIC;
