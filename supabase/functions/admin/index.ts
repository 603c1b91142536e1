// The operator admin API (product.md §7 "Admin"): every route is in app.ts.
import { createAdminHandler } from './app.ts'

Deno.serve(createAdminHandler())
