// Runs one edge function under Deno on the port the gateway chose. Hosted Supabase decides where
// `Deno.serve(handler)` listens; here this module does: it wraps Deno.serve so any options the
// function passes keep their handler but get the gateway's port on loopback, then imports index.ts.
const port = Number(Deno.env.get('REACHFLOW_FUNCTION_PORT'))
const entry = Deno.env.get('REACHFLOW_FUNCTION_ENTRY')
const name = Deno.env.get('REACHFLOW_FUNCTION_NAME')
const originalServe = Deno.serve.bind(Deno)

Deno.serve = (first, second) => {
  const options = typeof first === 'function' ? {} : { ...first }
  const handler = typeof first === 'function' ? first : (second ?? options.handler)
  delete options.handler
  delete options.path
  return originalServe(
    {
      ...options,
      port,
      hostname: '127.0.0.1',
      onListen: () => console.log(`function ${name} listening on 127.0.0.1:${port}`),
    },
    handler,
  )
}

await import(entry)
