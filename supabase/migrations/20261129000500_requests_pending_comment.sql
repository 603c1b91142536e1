-- Inbox reads happen inside campaign ticks too (folded-inbox-read.ts), not only in inbox.sync: the
-- column comment said "at the last sync".

COMMENT ON COLUMN "public"."social_accounts"."requests_pending" IS 'Message requests waiting in the account''s inbox at its last inbox read (an inbox.sync job or the read a campaign tick makes in its session).';
