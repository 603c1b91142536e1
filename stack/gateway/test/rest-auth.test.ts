// /rest/v1 identity and errors: JWT checks (expired, forged, alg none), RLS and privileges (401 for
// anon, 403 for users), schema profiles, unknown resources, and schema cache reloads after DDL.
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { ANON_KEY, LOCAL_PUBLISHABLE_KEY, SERVICE_ROLE_KEY, signHs256 } from '../../src/config.ts'
import { client, es256UserToken, jsonOf, raw, sql, useFixtures, userToken } from './rest-helpers.ts'

const t = useFixtures('au')
const anon = client()

describe('tokens', () => {
  it('rejects an expired token with 401 PGRST303 and WWW-Authenticate', async () => {
    const expired = signHs256({
      role: 'authenticated',
      sub: randomUUID(),
      exp: Math.floor(Date.now() / 1000) - 5,
    })
    const response = await raw(`/${t('kinds')}`, { headers: { Authorization: `Bearer ${expired}` } })
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer error="invalid_token", error_description=/,
    )
    expect(await jsonOf(response)).toMatchObject({ code: 'PGRST303', message: 'JWT expired' })
  })

  it('rejects forged, alg none and malformed tokens with 401 PGRST301', async () => {
    const forged = signHs256({ role: 'service_role' }, 'not-the-secret-not-the-secret-not-the-secret')
    const header = Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')
    const payload = Buffer.from('{"role":"service_role"}').toString('base64url')
    for (const token of [forged, `${header}.${payload}.`, 'garbage']) {
      const { status, error } = await client(token).from(t('kinds')).select('id')
      expect(status).toBe(401)
      expect(error?.code).toBe('PGRST301')
    }
  })

  it('requires an API key', async () => {
    const response = await fetch(`${process.env.SUPABASE_URL}/rest/v1/${t('kinds')}`)
    expect(response.status).toBe(401)
  })

  it('accepts ES256 user tokens, the publishable key and the service role key', async () => {
    const user = client(await es256UserToken())
    expect((await user.from(t('kinds')).select('id')).status).toBe(200)
    const publishable = await raw(`/${t('kinds')}?select=id`, { headers: { apikey: LOCAL_PUBLISHABLE_KEY } })
    expect(publishable.status).toBe(200)
    const service = await raw(`/rpc/${t('whoami')}`, {
      headers: { apikey: ANON_KEY, Authorization: `Bearer ${SERVICE_ROLE_KEY}` },
    })
    expect((await jsonOf(service)).role).toBe('service_role')
  })
})

describe('row-level security and privileges', () => {
  const alice = randomUUID()
  const bob = randomUUID()
  const asAlice = client(userToken(alice))
  const asBob = client(userToken(bob))

  it('lets users write and read only their own rows', async () => {
    const inserted = await asAlice
      .from(t('notes'))
      .insert({ body: 'alice only' })
      .select('body, owner_id')
      .single()
    expect(inserted.data).toEqual({ body: 'alice only', owner_id: alice })
    await asBob.from(t('notes')).insert({ body: 'bob only' })
    expect((await asAlice.from(t('notes')).select('body')).data).toEqual([{ body: 'alice only' }])
    expect((await asBob.from(t('notes')).select('body')).data).toEqual([{ body: 'bob only' }])
    const stolen = await asBob.from(t('notes')).update({ body: 'hacked' }).eq('body', 'alice only').select()
    expect(stolen.data).toEqual([])
    expect((await anon.from(t('notes')).select('body')).data).toEqual([])
  })

  it('answers an RLS denial with 401 for anon and 403 for a user', async () => {
    const asAnon = await anon.from(t('notes')).insert({ body: 'anon', owner_id: alice })
    expect(asAnon.status).toBe(401)
    expect(asAnon.error?.code).toBe('42501')
    const asUser = await asBob.from(t('notes')).insert({ body: 'forged owner', owner_id: alice })
    expect(asUser.status).toBe(403)
    expect(asUser.error).toMatchObject({
      code: '42501',
      message: `new row violates row-level security policy for table "${t('notes')}"`,
    })
  })

  it('answers missing privileges with 401 for anon and 403 for a user', async () => {
    expect((await anon.from(t('locked')).select()).status).toBe(401)
    const denied = await asAlice.from(t('locked')).select()
    expect(denied.status).toBe(403)
    expect(denied.error?.message).toBe(`permission denied for table ${t('locked')}`)
  })
})

describe('resources and schemas', () => {
  it('answers PGRST205 (404) for an unknown table, with a suggestion', async () => {
    const { status, error } = await anon.from(t('KINDS')).select()
    expect(status).toBe(404)
    expect(error).toMatchObject({
      code: 'PGRST205',
      message: `Could not find the table 'public.${t('KINDS')}' in the schema cache`,
      hint: `Perhaps you meant the table 'public.${t('kinds')}'`,
    })
  })

  it('serves the public schema by profile and refuses others with 406 PGRST106', async () => {
    expect((await anon.schema('public').from(t('kinds')).select('id')).status).toBe(200)
    const { status, error } = await anon.schema(t('private')).from('secrets').select()
    expect(status).toBe(406)
    expect(error).toMatchObject({
      code: 'PGRST106',
      message: `Invalid schema: ${t('private')}`,
      hint: 'Only the following schemas are exposed: public',
    })
    const write = await anon.schema(t('private')).from('secrets').insert({ id: 1 })
    expect(write.status).toBe(406)
  })

  it('answers 404 for nested paths and 405 for unknown methods', async () => {
    expect((await raw(`/${t('kinds')}/1`)).status).toBe(404)
    const response = await raw(`/${t('kinds')}`, { method: 'PROPFIND' })
    expect(response.status).toBe(405)
    expect((await jsonOf(response)).code).toBe('PGRST117')
  })

  it('reloads the schema cache after DDL, without a manual NOTIFY', async () => {
    const name = t('late')
    expect((await raw(`/${name}`)).status).toBe(404)
    await sql(`create table public.${name} (id int primary key); insert into public.${name} values (7)`)
    let status = 0
    for (let i = 0; i < 50 && status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      status = (await raw(`/${name}?select=id`)).status
    }
    expect(status).toBe(200)
    await sql(`drop table public.${name}`)
    for (let i = 0; i < 50 && status !== 404; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      status = (await raw(`/${name}?select=id`)).status
    }
    expect(status).toBe(404)
  })

  it('recovers when its database connections are cut: requests succeed and DDL is picked up again', async () => {
    await sql(
      "select pg_terminate_backend(pid) from pg_stat_activity where usename = 'authenticator' and pid <> pg_backend_pid()",
    )
    const { status, error } = await anon.from(t('kinds')).select('id').order('id')
    expect(error).toBeNull()
    expect(status).toBe(200)
    const name = t('after_cut')
    await sql(`create table public.${name} (id int primary key)`)
    let seen = 0
    for (let i = 0; i < 60 && seen !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      seen = (await raw(`/${name}?select=id`)).status
    }
    await sql(`drop table public.${name}`)
    expect(seen).toBe(200)
  })
})
