// The OAuth client the local stack registers with the sandbox Google, shared by the sandbox (which
// checks it) and the gateway's auth service (which presents it). Overridable by environment.
export function googleClient(env: NodeJS.ProcessEnv = process.env) {
  return {
    clientId: env.GOOGLE_CLIENT_ID || 'reachflow-local.apps.googleusercontent.com',
    clientSecret: env.GOOGLE_CLIENT_SECRET || 'reachflow-local-google-secret',
  }
}
