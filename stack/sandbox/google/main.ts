// Entry point the stack supervisor runs for the sandbox Google on config.ports.google.
import { stackConfig } from '../../src/config.ts'
import { createGoogleSandbox } from './server.ts'

const config = stackConfig()
const server = createGoogleSandbox({ allowedRedirectUris: [`${config.apiUrl}/auth/v1/callback`] })
server.listen(config.ports.google, config.host, () => {
  console.log(`google sandbox listening on ${config.sandboxUrls.google}`)
})
const stop = () => server.close(() => process.exit(0))
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
