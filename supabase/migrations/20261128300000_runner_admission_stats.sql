-- Each runner's heartbeat now carries its admission control: how many jobs and sign-ins it allows
-- at once under the machine's current load, how many are in flight, and how many jobs it put off
-- because the machine was too slow, so operators see a starved runner shedding work rather than
-- guessing from failed jobs. Written by `npm run db:diff` from supabase/schemas/90_admin.sql.

ALTER TABLE "public"."runner_heartbeats"
  ADD COLUMN "admission" jsonb;

ALTER TABLE "public"."runner_heartbeats"
  ADD CONSTRAINT "runner_heartbeats_admission_check" CHECK (((admission IS NULL) OR (jsonb_typeof(admission) = 'object'::text)));

COMMENT ON COLUMN "public"."runner_heartbeats"."admission" IS 'Admission control now: jobs and sign-ins allowed at once, in flight, jobs deferred for load since start, last event-loop lag (ms) and run queue per core. Null for a runner without it.';
