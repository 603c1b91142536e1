// Meta's webhook endpoint for official Instagram accounts (verify_jwt = false in supabase/config.toml: Meta signs, it has no JWT).
import { createWebhookHandler } from './handler.ts'

Deno.serve(createWebhookHandler())
