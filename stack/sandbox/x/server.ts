// The X sandbox process (`stack/src/services.ts` starts it): listens on config.ports.x and keeps
// its state in .stack/<instance>/sandbox-x.json.
import { join } from 'node:path'
import { stackConfig } from '../../src/config.ts'
import { exitOnSignals } from '../social/server.ts'
import { startXSandbox } from './app.ts'

const config = stackConfig()
const { stop } = startXSandbox({
  port: config.ports.x,
  stateFile: join(config.dir, 'sandbox-x.json'),
})
exitOnSignals(stop)
