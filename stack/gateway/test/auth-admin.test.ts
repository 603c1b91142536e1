// The admin user API (service role only) and app_metadata, which only it can set.
import { describe, expect, it } from 'vitest'
import { client, decodeJwt, fakeIp, serviceClient, signedUpUser, uniqueEmail } from './helpers.ts'

describe('admin users', () => {
  it('creates, reads, lists, updates and deletes users with the service role', async () => {
    const admin = serviceClient().auth.admin
    const email = uniqueEmail('admin')
    const created = await admin.createUser({
      email,
      password: 'admin-made-password',
      email_confirm: true,
      user_metadata: { full_name: 'Op' },
      app_metadata: { role: 'admin' },
    })
    expect(created.error).toBeNull()
    const id = created.data.user?.id ?? ''
    expect(created.data.user?.app_metadata).toMatchObject({ provider: 'email', role: 'admin' })
    const duplicate = await admin.createUser({ email, password: 'admin-made-password' })
    expect(duplicate.error).toMatchObject({ status: 422, code: 'email_exists' })

    const sb = client({ headers: { 'X-Forwarded-For': fakeIp() } })
    const signedIn = await sb.auth.signInWithPassword({ email, password: 'admin-made-password' })
    expect(decodeJwt(signedIn.data.session?.access_token ?? '').payload.app_metadata).toMatchObject({
      role: 'admin',
    })

    expect((await admin.getUserById(id)).data.user?.email).toBe(email)
    const listed = await admin.listUsers({ page: 1, perPage: 1000 })
    expect(listed.data.users.some((user) => user.id === id)).toBe(true)

    const updated = await admin.updateUserById(id, { app_metadata: { role: null, plan: 'pro' } })
    expect(updated.data.user?.app_metadata).toEqual({ provider: 'email', providers: ['email'], plan: 'pro' })

    expect((await admin.deleteUser(id)).error).toBeNull()
    expect((await admin.getUserById(id)).error).toMatchObject({ status: 404, code: 'user_not_found' })
    expect((await sb.auth.getUser()).error).not.toBeNull()
  })

  it('refuses the admin API to the anon key and to users', async () => {
    const { sb } = await signedUpUser('not-admin')
    const asUser = await sb.auth.admin.createUser({
      email: uniqueEmail('x'),
      app_metadata: { role: 'admin' },
    })
    expect(asUser.error).toMatchObject({ status: 403, code: 'not_admin' })
    const asAnon = await client().auth.admin.listUsers()
    expect(asAnon.error).toMatchObject({ status: 403 })
  })

  it('ignores app_metadata sent at sign-up', async () => {
    const email = uniqueEmail('tamper')
    const response = await fetch(`${process.env.SUPABASE_URL}/auth/v1/signup`, {
      method: 'POST',
      headers: {
        apikey: process.env.SUPABASE_ANON_KEY ?? '',
        'Content-Type': 'application/json',
        'X-Forwarded-For': fakeIp(),
      },
      body: JSON.stringify({ email, password: 'secret-password', app_metadata: { role: 'admin' }, data: {} }),
    })
    const body = (await response.json()) as { access_token: string; user: { app_metadata: unknown } }
    expect(body.user.app_metadata).toEqual({ provider: 'email', providers: ['email'] })
    expect(decodeJwt(body.access_token).payload.app_metadata).toEqual({
      provider: 'email',
      providers: ['email'],
    })
  })
})
