// Runs storage statements the way the storage server does: in one transaction as the caller's
// Postgres role with request.jwt.claims set, so the storage.objects / storage.buckets policies
// decide what the caller may see and change.
import type pg from 'pg'
import type { Caller, GatewayContext } from '../http.ts'

export async function asCaller<T>(
  ctx: GatewayContext,
  caller: Caller,
  work: (db: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await ctx.apiPool.connect()
  try {
    await client.query('begin')
    await client.query(
      `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
              set_config('request.jwt.claim.sub', $3, true), set_config('request.jwt.claim.role', $1, true)`,
      [
        caller.role,
        JSON.stringify(caller.claims),
        typeof caller.claims.sub === 'string' ? caller.claims.sub : '',
      ],
    )
    const result = await work(client)
    await client.query('commit')
    return result
  } catch (error) {
    await client.query('rollback').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}
