// Entry point the stack supervisor runs for the AI (chat-completions) sandbox on config.ports.ai.
import { stackConfig } from '../../src/config.ts'
import { createAiSandbox } from './server.ts'

const config = stackConfig()
const sandbox = createAiSandbox()
sandbox.server.listen(config.ports.ai, config.host, () => {
  console.log(`ai sandbox listening on ${config.sandboxUrls.ai}`)
})
const stop = () => {
  sandbox.close()
  process.exit(0)
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
