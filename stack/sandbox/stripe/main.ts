// The Stripe sandbox as a stack service (see stack/src/services.ts): listens on the instance's
// Stripe port, keeps its state in .stack/<instance>/stripe-sandbox.json, and delivers webhooks to
// the local stripe-webhook function unless STRIPE_WEBHOOK_URL says otherwise.
import { join } from 'node:path'
import { stackConfig } from '../../src/config.ts'
import { LOCAL_STRIPE_SECRET_KEY, LOCAL_STRIPE_WEBHOOK_SECRET } from '../../src/functions-env.ts'
import { createStripeSandbox } from './server.ts'

const config = stackConfig()
const supabaseUrl = process.env.SUPABASE_URL ?? config.apiUrl
const log = (line: string) => console.log(`[stripe] ${line}`)

const sandbox = await createStripeSandbox(
  {
    secretKey: process.env.STRIPE_SECRET_KEY ?? LOCAL_STRIPE_SECRET_KEY,
    webhookUrl: process.env.STRIPE_WEBHOOK_URL ?? `${supabaseUrl}/functions/v1/stripe-webhook`,
    webhookSecret: process.env.STRIPE_WEBHOOK_SECRET ?? LOCAL_STRIPE_WEBHOOK_SECRET,
    stateFile: join(config.dir, 'stripe-sandbox.json'),
    dueCheckMs: 30_000,
    log,
  },
  config.ports.stripe,
  config.host,
)
log(`listening on ${sandbox.url}`)

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    void sandbox.close().then(() => process.exit(0))
  })
}
