-- Meta's webhook deliveries for official Instagram accounts (comments, messages, story mentions and
-- replies): the instagram-webhook function answers at once and stores each event once by its id
-- (Meta may deliver one more than once), queueing an instagram.event job for each new one; the
-- table is reachable only through the service role's RPC.
-- Written by `npm run db:diff` (pg-delta) from supabase/schemas; the queue by hand.

SET local check_function_bodies = off;

CREATE TABLE "internal"."instagram_webhook_events" (
  "id"                   uuid                     NOT NULL DEFAULT gen_random_uuid(),
  "event_key"            text                     NOT NULL,
  "instagram_account_id" text                     NOT NULL,
  "field"                text                     NOT NULL,
  "kind"                 text                     NOT NULL,
  "occurred_at"          timestamp with time zone NOT NULL,
  "payload"              jsonb                    NOT NULL,
  "deliveries"           integer                  NOT NULL DEFAULT 1,
  "received_at"          timestamp with time zone NOT NULL DEFAULT now(),
  "last_received_at"     timestamp with time zone NOT NULL DEFAULT now(),
  "job_id"               uuid,
  CONSTRAINT "instagram_webhook_events_event_key_check" CHECK ((char_length(event_key) <= 300)),
  CONSTRAINT "instagram_webhook_events_event_key_key" UNIQUE (event_key),
  CONSTRAINT "instagram_webhook_events_kind_check"
    CHECK ((kind = ANY (ARRAY['comment'::text, 'message'::text, 'echo'::text, 'story_mention'::text, 'story_reply'::text, 'other'::text]))),
  CONSTRAINT "instagram_webhook_events_pkey" PRIMARY KEY (id)
);

ALTER TABLE "internal"."instagram_webhook_events"
  ENABLE ROW LEVEL SECURITY;

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
    on conflict (event_key) do update
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

REVOKE ALL ON FUNCTION "public"."record_instagram_webhook_events"(jsonb) FROM PUBLIC, "anon", "authenticated";

COMMENT ON COLUMN "internal"."instagram_webhook_events"."deliveries" IS 'How many times Meta delivered this event (it may deliver one more than once).';

COMMENT ON COLUMN "internal"."instagram_webhook_events"."instagram_account_id" IS 'entry.id: the Instagram professional account the event is for (social_accounts.platform_user_id of an official account).';

COMMENT ON FUNCTION "public"."record_instagram_webhook_events"(jsonb) IS 'Service role only (the instagram-webhook function, after the signature checked): stores each delivered event once by its key and queues an instagram.event job for each new one; a repeated delivery only counts. Answers {stored, repeated}.';

COMMENT ON TABLE "internal"."instagram_webhook_events" IS 'What Meta delivered to the instagram-webhook function, one row per event (a comment by its id, a message by its mid), however often it was delivered; each new one queued an instagram.event job. Only the service role reaches it, through record_instagram_webhook_events.';

REVOKE ALL ON FUNCTION "public"."record_instagram_webhook_events"(jsonb) FROM "postgres";

GRANT EXECUTE ON FUNCTION "public"."record_instagram_webhook_events"(jsonb) TO "postgres";

GRANT EXECUTE ON FUNCTION "public"."record_instagram_webhook_events"(jsonb) TO "service_role";

-- Queue (by hand) --------------------------------------------------------------------------------

-- An event's processing sends at most one reply; it is retried a few times a minute apart.
select pgboss.create_queue('instagram.event',
  jsonb_build_object('policy', 'short', 'retryLimit', 3, 'retryDelay', 60, 'retryBackoff', true, 'expireInSeconds', 300));
