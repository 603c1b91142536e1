// The role matrix at the Instagram connect function, in-process against the test stack: connecting,
// finishing and disconnecting an account are an editor's, so a viewer and an agent hear the
// workspace's 403 words before an OAuth state is issued (without the check either could start a
// connect, 200, and the finish writes the account with the service role); an agent, whose workspace
// is the inbox, does not read an automation's posts either.
import assert from 'node:assert/strict'
import { callerOf, memberOf, newCustomer, stackEnv, type TestCustomer } from '../_shared/test-stack.ts'
import { ROLE_REFUSED } from '../_shared/workspace-role.ts'
import { createOfficialHandler } from './app.ts'
import { defaultDeps } from './deps.ts'

const env = stackEnv()
const handle = createOfficialHandler(defaultDeps(env))
const BROWSER = 'a-browser-key-000000000000000000000000'

const call = callerOf(handle, 'instagram-official')
const member = (owner: TestCustomer, role: 'agent' | 'viewer') => memberOf(owner, role, env)

Deno.test('a viewer and an agent are refused connecting, finishing and disconnecting Instagram', async () => {
  const owner = await newCustomer('ig-owner')
  const accountId = crypto.randomUUID()
  const refused = { status: 403, body: { error: ROLE_REFUSED } }
  for (const role of ['viewer', 'agent'] as const) {
    const person = await member(owner, role)
    assert.deepEqual(
      await call(person, 'POST', '/connect', { browserKey: BROWSER }),
      refused,
      `${role} connect`,
    )
    assert.deepEqual(
      await call(person, 'POST', '/finish', { state: 'x'.repeat(32), code: 'y', browserKey: BROWSER }),
      refused,
      `${role} finish`,
    )
    assert.deepEqual(await call(person, 'DELETE', `/accounts/${accountId}`), refused, `${role} disconnect`)
  }
  const agent = await member(owner, 'agent')
  assert.deepEqual(await call(agent, 'GET', `/accounts/${accountId}/media`), refused, "an automation's posts")
})
