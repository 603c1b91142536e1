// The product backend (product.md §7): every route is in app.ts.
import { createApiHandler } from './app.ts'

Deno.serve(createApiHandler())
