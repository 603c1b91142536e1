-- social_accounts.connection: an account is driven either by the runner's browser on the consumer site
-- (every account so far) or by the platform's official API through OAuth. Both platform paths build on it.

ALTER TABLE "public"."social_accounts"
  ADD COLUMN "connection" text NOT NULL DEFAULT 'browser'::text;

ALTER TABLE "public"."social_accounts"
  ADD CONSTRAINT "social_accounts_connection_check" CHECK ((connection = ANY (ARRAY['browser'::text, 'official'::text])));

COMMENT ON COLUMN "public"."social_accounts"."connection" IS 'How the account is driven: browser = the runner signs in to the consumer site; official = the platform''s own API (Instagram API with Instagram Login, or X API v2) with OAuth tokens sealed in social_account_credentials.';
