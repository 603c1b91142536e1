// Connecting and disconnecting Instagram accounts through Instagram's official API: every route is in app.ts.
import { createOfficialHandler } from './app.ts'

Deno.serve(createOfficialHandler())
