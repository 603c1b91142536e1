// autocannon requests for signed-in customers cycling through dashboard reads: each connection
// keeps one customer's token, RPCs go out as POST with an empty JSON body. Shared by
// `npm run bench:load` and the crash-under-load test.
import type autocannon from 'autocannon'

export function dashboardRequests(paths: string[], tokens: string[], anonKey: string): autocannon.Request[] {
  let next = 0
  return paths.map((path) => ({
    method: path.includes('/rpc/') ? 'POST' : 'GET',
    path,
    setupRequest: (request: autocannon.Request, context: object) => {
      const state = context as { token?: string }
      state.token ??= tokens[next++ % tokens.length]
      return {
        ...request,
        headers: {
          apikey: anonKey,
          Authorization: `Bearer ${String(state.token)}`,
          'Content-Type': 'application/json',
        },
        ...(path.includes('/rpc/') ? { body: '{}' } : {}),
      }
    },
  }))
}
