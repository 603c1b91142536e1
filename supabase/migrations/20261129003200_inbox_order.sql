-- The inbox read keeps the order of the inbox list it saw (social_accounts.inbox_order): X Chat
-- rows carry no machine-readable time, so a reply read on another device that reads like the last
-- one ("ok" twice) changes neither the unread mark nor the preview; only its row's move up the list
-- tells. The next read opens a row that now stands above one it stood below. Written by
-- `npm run db:diff` (pg-delta).

ALTER TABLE "public"."social_accounts"
  ADD COLUMN "inbox_order" text[];

COMMENT ON COLUMN "public"."social_accounts"."inbox_order" IS 'The platform thread ids of the inbox list at the last inbox read, top first (at most 200). X Chat rows carry no machine-readable time: a row that since moved above one it stood below holds something new, even a reply that reads like the last one. Written by the runner.';

REVOKE ALL ("inbox_order") ON TABLE "public"."social_accounts" FROM "reachflow_runner";

GRANT UPDATE ("inbox_order") ON TABLE "public"."social_accounts" TO "reachflow_runner";
