// `Accept: application/geo+json` as PostgREST answers it: a FeatureCollection built with PostGIS's
// ST_AsGeoJSON(record) when PostGIS is installed, 406 PGRST107 when it is not. PostGIS is not part of
// the stack, so a stand-in ST_AsGeoJSON(record) (in a schema of its own, found as PostGIS's would be)
// shows what the gateway builds around it; with real PostGIS the same path runs its function.
import { afterAll, describe, expect, it } from 'vitest'
import { jsonOf, raw, sql, useFixtures } from './rest-helpers.ts'

const t = useFixtures('geo')
const STAND_IN = '_gw_geojson_standin'
const geo = (path: string) => raw(path, { headers: { Accept: 'application/geo+json' } })

/** Reloads the schema cache and waits for it (generously: other files reload it at the same time). */
async function reloadUntil(ready: (status: number) => boolean): Promise<void> {
  await sql("notify pgrst, 'reload schema'")
  for (let i = 0; i < 600; i++) {
    const response = await geo(`/${t('authors')}?select=id&limit=1`)
    await response.body?.cancel()
    if (ready(response.status)) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('the gateway did not reload its schema cache')
}

afterAll(async () => {
  await sql(`drop schema if exists ${STAND_IN} cascade`)
  await sql("notify pgrst, 'reload schema'")
})

describe('application/geo+json', () => {
  it('is 406 without PostGIS, and a FeatureCollection of ST_AsGeoJSON rows with it', {
    timeout: 90_000,
  }, async () => {
    const {
      rows: [postgis],
    } = await sql<{ n: number }>("select count(*)::int as n from pg_extension where extname = 'postgis'")
    if (postgis?.n === 0) {
      const refused = await geo(`/${t('authors')}`)
      expect(refused.status).toBe(406)
      expect(await jsonOf(refused)).toMatchObject({
        code: 'PGRST107',
        message: 'None of these media types are available: application/geo+json',
      })
    }

    await sql(`create schema ${STAND_IN};
      create function ${STAND_IN}.st_asgeojson(feature record) returns text language plpgsql immutable as $$
        begin
          return json_build_object('type', 'Feature', 'geometry', null, 'properties', to_json(feature))::text;
        end $$;
      grant usage on schema ${STAND_IN} to anon, authenticated;`)
    await reloadUntil((status) => status === 200)

    const response = await geo(`/${t('authors')}?select=id,name&id=lt.3&order=id`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/geo+json; charset=utf-8')
    expect(await response.json()).toEqual({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', geometry: null, properties: { id: 1, name: 'Ada' } },
        { type: 'Feature', geometry: null, properties: { id: 2, name: 'Grace' } },
      ],
    })
    const none = await geo(`/${t('authors')}?id=eq.-1`)
    expect(await none.json()).toEqual({ type: 'FeatureCollection', features: [] })
  })
})
