// Entry point the stack supervisor runs: `tsx stack/gateway/src/main.ts`.
import { routes } from './routes.ts'
import { createGateway } from './server.ts'

const gateway = await createGateway(routes)
await gateway.listen()
gateway.ctx.log('info', `gateway listening on ${gateway.ctx.config.apiUrl}`)

const stop = async () => {
  await gateway.close().catch(() => {})
  process.exit(0)
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
