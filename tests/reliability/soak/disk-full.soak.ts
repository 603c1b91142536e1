// A full disk under uploads (soak only, as root: a small tmpfs is mounted over the instance's object
// folder). An upload that does not fit is refused with a clear message, leaves neither a row nor a
// partial file, and uploads work again once there is room.
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { anonKey, api } from '../../../stack/gateway/test/helpers.ts'
import { stackConfig } from '../../../stack/src/config.ts'
import { customer, db } from '../../functions/helpers.ts'

const objects = join(stackConfig().storageDir, 'objects')
let mounted = false

afterAll(() => {
  if (mounted) spawnSync('umount', ['-l', objects])
})

describe('a full disk', () => {
  it('an upload that does not fit gets a clear error and leaves nothing behind', async () => {
    const user = await customer('diskfull')
    const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k,mode=0700', 'tmpfs', objects], {
      encoding: 'utf8',
    })
    expect(mount.status, `mounting a small tmpfs needs root: ${mount.stderr}`).toBe(0)
    mounted = true
    const upload = (bytes: number) =>
      fetch(`${api}/storage/v1/object/avatars/${user.user.id}/avatar.png`, {
        method: 'POST',
        headers: {
          apikey: anonKey,
          Authorization: `Bearer ${user.session.access_token}`,
          'Content-Type': 'image/png',
          'x-upsert': 'true',
        },
        body: new Uint8Array(bytes).fill(7),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }))

    const full = await upload(1024 * 1024)
    expect(full.status).toBe(500)
    expect(full.body).toMatchObject({
      code: 'InternalError',
      message: expect.stringMatching(/storage is full/),
    })
    expect(readdirSync(objects)).toEqual([])
    const rows = await db().query(
      `select 1 from storage.objects where bucket_id = 'avatars' and name like $1`,
      [`${user.user.id}/%`],
    )
    expect(rows.rowCount).toBe(0)
    // Room again (a small file fits): uploads work without restarting anything.
    expect((await upload(10 * 1024)).status).toBe(200)
  })
})
