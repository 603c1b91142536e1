// Hosted Supabase loads pg-safeupdate into the Data API's sessions (supabase/postgres migration
// 20220118070449_enable-safeupdate-postgrest: `alter role authenticator set
// session_preload_libraries = 'safeupdate'`): an UPDATE or DELETE without a WHERE clause fails with
// SQLSTATE 21000, which PostgREST answers with 400 (PostgREST.Error, pgErrorStatus: "special case
// for pg-safeupdate"). The local stack enforces the same (stack/platform/ext/safeupdate.c), so a path
// that would break in production breaks in the tests first.
import { describe, expect, it } from 'vitest'
import { jsonOf, raw, serviceHeaders, sql, useFixtures } from './rest-helpers.ts'

const t = useFixtures('safeupd')

describe('pg-safeupdate on the Data API', () => {
  it('refuses a PATCH or DELETE without filters with 400 and the extension texts', async () => {
    await sql(`insert into public.${t('canary')} values (2, 'second')`)
    const patch = await raw(`/${t('canary')}`, {
      method: 'PATCH',
      headers: { ...serviceHeaders, 'Content-Type': 'application/json' },
      body: JSON.stringify({ note: 'overwritten' }),
    })
    expect(patch.status).toBe(400)
    expect(await jsonOf(patch)).toEqual({
      code: '21000',
      details: null,
      hint: null,
      message: 'UPDATE requires a WHERE clause',
    })
    const remove = await raw(`/${t('canary')}`, { method: 'DELETE', headers: serviceHeaders })
    expect(remove.status).toBe(400)
    expect(await jsonOf(remove)).toMatchObject({ code: '21000', message: 'DELETE requires a WHERE clause' })
    const { rows } = await sql(`select id, note from public.${t('canary')} order by id`)
    expect(rows).toEqual([
      { id: 1, note: 'still here' },
      { id: 2, note: 'second' },
    ])
  })

  it('accepts the same writes with any filter, as PostgREST under safeupdate does', async () => {
    const patch = await raw(`/${t('canary')}?id=gte.0&select=id,note`, {
      method: 'PATCH',
      headers: {
        ...serviceHeaders,
        'Content-Type': 'application/json',
        Prefer: 'return=representation',
      },
      body: JSON.stringify({ note: 'all of them' }),
    })
    expect(patch.status).toBe(200)
    expect((await jsonOf<{ note: string }[]>(patch)).every((row) => row.note === 'all of them')).toBe(true)
  })

  it('refuses an unqualified DELETE inside a function the request calls, and in a data-modifying WITH', async () => {
    const wipe = t('wipe_canary')
    const wipeAll = t('wipe_canary_where_true')
    await sql(`
      create function public.${wipe}() returns bigint language sql as $$
        with gone as (delete from public.${t('canary')} returning 1) select count(*) from gone $$;
      create function public.${wipeAll}() returns bigint language sql as $$
        with gone as (delete from public.${t('canary')} where true returning 1) select count(*) from gone $$;
      grant execute on function public.${wipe}(), public.${wipeAll}() to service_role;
      notify pgrst, 'reload schema';`)
    const call = async (name: string) => {
      for (let i = 0; i < 100; i++) {
        const response = await raw(`/rpc/${name}`, { method: 'POST', headers: serviceHeaders })
        if (response.status !== 404) return response
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      throw new Error(`the gateway never saw ${name}`)
    }
    const refused = await call(wipe)
    expect(refused.status).toBe(400)
    expect(await jsonOf(refused)).toMatchObject({ code: '21000', message: 'DELETE requires a WHERE clause' })
    const allowed = await call(wipeAll)
    expect(allowed.status).toBe(200)
    expect(await jsonOf<number>(allowed)).toBeGreaterThanOrEqual(1)
    await sql(`drop function public.${wipe}(), public.${wipeAll}()`)
  })

  it('leaves other sessions alone: migrations and the runner connect without it', async () => {
    // The postgres role (migrations, the SQL editor) has no session_preload_libraries, as on hosted.
    await sql(`insert into public.${t('canary')} values (3, 'third')`)
    const { rowCount } = await sql(`delete from public.${t('canary')}`)
    expect(rowCount).toBeGreaterThanOrEqual(1)
    const { rows } = await sql<{ loaded: string }>(
      `select coalesce((select c from pg_db_role_setting s, unnest(s.setconfig) c
         where s.setrole = 'postgres'::regrole and c like 'session_preload_libraries=%'), 'none') as loaded`,
    )
    expect(rows[0]?.loaded).toBe('none')
  })
})
