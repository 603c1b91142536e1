// The Meta sandbox process (`stack/src/services.ts` starts it) on config.ports.meta, with the local
// app's id, secret and redirect URI, its state in .stack/<instance>/sandbox-meta.json. Like an
// operator saving the callback in the App Dashboard once the functions are deployed, it verifies
// the webhook callback as soon as the function answers; until then no event is delivered.
import { join } from 'node:path'
import { stackConfig } from '../../src/config.ts'
import { instagramUrls, LOCAL_INSTAGRAM_APP } from '../../src/functions-env.ts'
import { exitOnSignals } from '../social/server.ts'
import { startMetaSandbox } from './app.ts'

const config = stackConfig()
const urls = instagramUrls(config)
const sandbox = startMetaSandbox({
  port: config.ports.meta,
  host: config.host,
  stateFile: join(config.dir, 'sandbox-meta.json'),
  appId: LOCAL_INSTAGRAM_APP.id,
  appSecret: LOCAL_INSTAGRAM_APP.secret,
  redirectUris: [urls.redirectUri],
  deauthorizeUrl: urls.deauthorizeUrl,
  dataDeletionUrl: urls.dataDeletionUrl,
})

async function verifyWhenReady(): Promise<void> {
  for (;;) {
    const result = await sandbox.webhooks.verifyCallback(urls.webhookUrl, LOCAL_INSTAGRAM_APP.verifyToken)
    if (result.ok) return console.log(`meta sandbox: webhook callback verified (${urls.webhookUrl})`)
    await new Promise((resolve) => setTimeout(resolve, 2000))
  }
}
void verifyWhenReady()
exitOnSignals(sandbox.stop)
