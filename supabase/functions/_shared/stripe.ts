// The Stripe client for functions. With STRIPE_SECRET_KEY alone it talks to Stripe; when
// STRIPE_API_BASE is set (the local stack's sandbox, e.g. http://127.0.0.1:54340) the same client
// and calls go there instead. Webhook events are verified on the raw body with WebCrypto.
import Stripe from 'npm:stripe@23.1.0'
import { ConfigError, denoEnv, type Env, requireEnv } from './env.ts'
import { badRequest } from './errors.ts'

export { Stripe }

export interface StripeSettings {
  secretKey: string
  host?: string
  port?: number
  protocol?: 'http' | 'https'
}

export function stripeSettings(env: Env = denoEnv): StripeSettings {
  const secretKey = requireEnv('STRIPE_SECRET_KEY', env)
  const base = env('STRIPE_API_BASE')?.trim()
  if (!base) return { secretKey }
  let url: URL
  try {
    url = new URL(base)
  } catch {
    throw new ConfigError(`STRIPE_API_BASE is not a URL: ${base}`)
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    (url.pathname !== '/' && url.pathname !== '')
  ) {
    throw new ConfigError('STRIPE_API_BASE must be an http(s) origin such as http://127.0.0.1:54340')
  }
  const protocol = url.protocol === 'http:' ? 'http' : 'https'
  return {
    secretKey,
    host: url.hostname,
    port: Number(url.port || (protocol === 'http' ? 80 : 443)),
    protocol,
  }
}

export function createStripeClient(env: Env = denoEnv): Stripe {
  const { secretKey, ...endpoint } = stripeSettings(env)
  return new Stripe(secretKey, {
    ...endpoint,
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 2,
  })
}

const cryptoProvider = Stripe.createSubtleCryptoProvider()

/**
 * The event in a webhook request, after checking `Stripe-Signature` against the exact raw body
 * with STRIPE_WEBHOOK_SECRET; 400 when the header is missing or the signature does not verify.
 */
export async function verifyStripeEvent(
  stripe: Stripe,
  rawBody: string,
  signatureHeader: string | null,
  env: Env = denoEnv,
): Promise<Stripe.Event> {
  const secret = requireEnv('STRIPE_WEBHOOK_SECRET', env)
  if (!signatureHeader) throw badRequest('Missing Stripe-Signature header')
  try {
    return await stripe.webhooks.constructEventAsync(
      rawBody,
      signatureHeader,
      secret,
      undefined,
      cryptoProvider,
    )
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError)
      throw badRequest('Invalid Stripe signature')
    throw error
  }
}
