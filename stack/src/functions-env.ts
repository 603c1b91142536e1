// The environment of the edge functions on the local stack, in one place: the gateway's function
// host loads `functionsEnv(config)`, the Stripe sandbox and the runner take their shared secrets from
// the constants here. On hosted Supabase the same names are set with `supabase secrets set`
// (SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY and SUPABASE_DB_URL are provided there).
// Every value below is a fixed local development value, useless anywhere else.
import { SANDBOX_API_KEY, SANDBOX_MODEL } from '../sandbox/ai/server.ts'
import type { StackConfig } from './config.ts'

/** The only key the Stripe sandbox accepts; real keys (sk_live_/sk_test_ from Stripe) go to real Stripe. */
export const LOCAL_STRIPE_SECRET_KEY = 'sk_test_51ReachflowLocalSandbox0000000000000000000000000000'
/** Signs the sandbox's webhook events; the stripe-webhook function verifies with it. */
export const LOCAL_STRIPE_WEBHOOK_SECRET = 'whsec_reachflowlocalsandbox0000000000000000'
/** AES-256-GCM key for stored credentials (32 bytes, base64), under the key id below. */
export const LOCAL_ENCRYPTION_KEY_ID = 'local1'
export const LOCAL_ENCRYPTION_KEYS = `${LOCAL_ENCRYPTION_KEY_ID}:MuLiHABQuF/92f537bTmEicjx2sVIbyt9rbAR+t4YAw=`

/** The local Meta app (Instagram API with Instagram Login) the Meta sandbox knows. */
export const LOCAL_INSTAGRAM_APP = {
  id: '990000000000001',
  secret: 'reachflowlocalmetaappsecret000001',
  verifyToken: 'reachflow-local-webhook-verify-token',
}

/** Where Instagram sends the customer back after consent, where Meta delivers webhooks, and its app callbacks. */
export function instagramUrls(config: StackConfig) {
  return {
    redirectUri: `${config.apiUrl}/functions/v1/instagram-official/callback`,
    webhookUrl: `${config.apiUrl}/functions/v1/instagram-webhook`,
    deauthorizeUrl: `${config.apiUrl}/functions/v1/instagram-webhook/deauthorize`,
    dataDeletionUrl: `${config.apiUrl}/functions/v1/instagram-webhook/data-deletion`,
  }
}

export function functionsEnv(config: StackConfig): Record<string, string> {
  return {
    SUPABASE_URL: config.apiUrl,
    SUPABASE_ANON_KEY: config.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: config.serviceRoleKey,
    SUPABASE_DB_URL: config.dbUrl,
    SITE_URL: config.webUrl,
    STRIPE_SECRET_KEY: LOCAL_STRIPE_SECRET_KEY,
    STRIPE_API_BASE: config.sandboxUrls.stripe,
    STRIPE_WEBHOOK_SECRET: LOCAL_STRIPE_WEBHOOK_SECRET,
    REACHFLOW_ENCRYPTION_KEYS: LOCAL_ENCRYPTION_KEYS,
    REACHFLOW_ENCRYPTION_KEY_ID: LOCAL_ENCRYPTION_KEY_ID,
    X_BASE_URL: config.sandboxUrls.x,
    // X API v2 (api.x.com) is served by the same X sandbox, on the same world
    X_API_BASE_URL: config.sandboxUrls.x,
    // the sandbox stands in for www.instagram.com, api.instagram.com and graph.instagram.com
    INSTAGRAM_LOGIN_URL: config.sandboxUrls.meta,
    INSTAGRAM_OAUTH_URL: config.sandboxUrls.meta,
    INSTAGRAM_GRAPH_URL: config.sandboxUrls.meta,
    INSTAGRAM_APP_ID: LOCAL_INSTAGRAM_APP.id,
    INSTAGRAM_APP_SECRET: LOCAL_INSTAGRAM_APP.secret,
    INSTAGRAM_WEBHOOK_VERIFY_TOKEN: LOCAL_INSTAGRAM_APP.verifyToken,
    ...aiEnv(config),
  }
}

/**
 * The optional AI endpoint: the local stack points it at the AI sandbox. Test instances
 * give up on a hanging endpoint after 5 s rather than 20 s, so failure-mode tests stay short.
 */
export function aiEnv(config: StackConfig): Record<string, string> {
  return {
    AI_BASE_URL: `${config.sandboxUrls.ai}/v1`,
    AI_API_KEY: SANDBOX_API_KEY,
    AI_MODEL: SANDBOX_MODEL,
    ...(config.instance === 'dev' ? {} : { AI_TIMEOUT_MS: '5000' }),
  }
}
