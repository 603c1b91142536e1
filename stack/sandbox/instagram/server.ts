// The Instagram sandbox process (`stack/src/services.ts` starts it): listens on
// config.ports.instagram and keeps its state in .stack/<instance>/sandbox-instagram.json.
import { join } from 'node:path'
import { stackConfig } from '../../src/config.ts'
import { exitOnSignals } from '../social/server.ts'
import { startInstagramSandbox } from './app.ts'

const config = stackConfig()
const { stop } = startInstagramSandbox({
  port: config.ports.instagram,
  stateFile: join(config.dir, 'sandbox-instagram.json'),
})
exitOnSignals(stop)
