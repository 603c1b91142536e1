-- Instagram webhook events are de-duplicated per account: the key was unique across all accounts, so
-- an event for one customer's account carrying an id already seen on another customer's account was
-- dropped as a repeat (and its automation never ran). Now (instagram_account_id, event_key) is unique.
-- Written by `npm run db:diff` (pg-delta) from supabase/schemas.

SET local check_function_bodies = off;

ALTER TABLE "internal"."instagram_webhook_events"
  DROP CONSTRAINT "instagram_webhook_events_event_key_key";

CREATE OR REPLACE FUNCTION public.record_instagram_webhook_events (
  p_events jsonb
)
  RETURNS jsonb
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  item jsonb;
  stored_id uuid;
  fresh boolean;
  added integer := 0;
  repeated integer := 0;
begin
  -- p_events: [{key, accountId, field, kind, occurredAt, payload}], checked by the function
  for item in select value from jsonb_array_elements(coalesce(p_events, '[]'::jsonb)) loop
    insert into internal.instagram_webhook_events as e (event_key, instagram_account_id, field, kind, occurred_at, payload)
    values (item ->> 'key', item ->> 'accountId', item ->> 'field', item ->> 'kind', (item ->> 'occurredAt')::timestamptz,
            item -> 'payload')
    on conflict (instagram_account_id, event_key) do update
      set deliveries = e.deliveries + 1, last_received_at = now()
    returning e.id, (xmax = 0) into stored_id, fresh;
    if fresh then
      update internal.instagram_webhook_events e
         set job_id = internal.enqueue_job('instagram.event', jsonb_build_object('eventId', stored_id), 'instagram-event:' || stored_id)
       where e.id = stored_id;
      added := added + 1;
    else
      repeated := repeated + 1;
    end if;
  end loop;
  return jsonb_build_object('stored', added, 'repeated', repeated);
end
$function$;

ALTER TABLE "internal"."instagram_webhook_events"
  ADD CONSTRAINT "instagram_webhook_events_account_event_key" UNIQUE (instagram_account_id, event_key);

COMMENT ON FUNCTION "public"."record_instagram_webhook_events"(jsonb) IS 'Service role only (the instagram-webhook function, after the signature checked): stores each delivered event once by its account and key and queues an instagram.event job for each new one; a repeated delivery only counts. Answers {stored, repeated}.';

COMMENT ON TABLE "internal"."instagram_webhook_events" IS 'What Meta delivered to the instagram-webhook function, one row per event of an account (a comment by its id, a message by its mid, per entry.id: another account''s event with the same id is its own event), however often it was delivered; each new one queued an instagram.event job. Only the service role reaches it, through record_instagram_webhook_events.';
