-- An uncertain send keeps the ids of the thread's rows it saw before typing (dm_logs.seen_before).
-- With no message of the thread stored before the send, its later check searched the whole thread,
-- and an older row of ours with the same text counted as this send: a DM not sent was recorded
-- sent. Rows the send saw before typing are now never taken for it. Written by `npm run db:diff`.

ALTER TABLE "public"."dm_logs"
  ADD COLUMN "seen_before" text[];

COMMENT ON COLUMN "public"."dm_logs"."seen_before" IS 'An uncertain send''s thread as the send saw it before typing: the platform ids of its rows. None of them is this send, whatever its text, when the thread is checked later (X rows carry no time). Written by the runner.';

REVOKE ALL ("seen_before") ON TABLE "public"."dm_logs" FROM "reachflow_runner";

GRANT UPDATE ("seen_before") ON TABLE "public"."dm_logs" TO "reachflow_runner";
