// Stripe's webhook endpoint (verify_jwt = false in supabase/config.toml: Stripe signs, it has no JWT).
import { createWebhookHandler } from './handler.ts'

Deno.serve(createWebhookHandler())
