// The automations' post picker: the latest posts and reels of one of the caller's official
// Instagram accounts, read from Instagram with the account's sealed token. The token is opened
// here and never leaves the function; the caller gets only what the picker shows.
import type { InstagramMediaItem, InstagramMediaList } from '@reachflow/domain'
import type { Caller } from '../_shared/auth.ts'
import { decryptSecret, keyringFromEnv } from '../_shared/crypto.ts'
import { DatabaseError, must } from '../_shared/db-errors.ts'
import { conflict, HttpError, jsonResponse, notFound } from '../_shared/errors.ts'
import { graphUrlOf, type InstagramMedia, listMedia, MetaApiError } from '../_shared/instagram-api.ts'
import { parseId } from '../_shared/validation.ts'
import type { OfficialDeps } from './deps.ts'

const NOT_FOUND = 'Account not found'
/** Enough to find a recent post; older ones are rarely what an automation watches. */
const MEDIA_LIMIT = 50

export const MEDIA_ERRORS = {
  reconnect: "Instagram no longer accepts this account's access. Connect it again from Social Accounts.",
  instagram: (message: string) => `Instagram could not list the posts: ${message}`,
} as const

export type PickerMedia = InstagramMediaItem

export async function listAccountMedia(
  caller: Caller,
  rawId: string | undefined,
  deps: OfficialDeps,
): Promise<Response> {
  const id = parseId(rawId, NOT_FOUND)
  // the caller's own client: another customer's account is not found
  const found = await caller.db
    .from('social_accounts')
    .select('id, connection, platform:platforms(name)')
    .eq('id', id)
    .maybeSingle()
  const account = must(found, NOT_FOUND)
  if (account.connection !== 'official' || account.platform?.name !== 'instagram') throw notFound(NOT_FOUND)
  const sealed = await deps
    .service()
    .from('social_account_credentials')
    .select('ciphertext')
    .eq('account_id', id)
    .maybeSingle()
  if (sealed.error) throw new DatabaseError(sealed.error)
  if (!sealed.data) throw conflict(MEDIA_ERRORS.reconnect)
  const { accessToken } = JSON.parse(
    await decryptSecret(sealed.data.ciphertext, await keyringFromEnv(deps.env)),
  ) as { accessToken?: string }
  if (!accessToken) throw conflict(MEDIA_ERRORS.reconnect)
  try {
    const media = await listMedia({ graphUrl: graphUrlOf(deps.env) }, accessToken, MEDIA_LIMIT, deps.fetch)
    return jsonResponse({ media: media.map(pickerMedia) } satisfies InstagramMediaList)
  } catch (error) {
    if (!(error instanceof MetaApiError)) throw error
    if (error.tokenInvalid) throw conflict(MEDIA_ERRORS.reconnect)
    throw new HttpError(502, MEDIA_ERRORS.instagram(error.message))
  }
}

function pickerMedia(media: InstagramMedia): PickerMedia {
  return {
    id: media.id,
    caption: media.caption ?? '',
    kind: media.media_product_type === 'REELS' ? 'reel' : 'post',
    permalink: media.permalink ?? null,
    postedAt: media.timestamp ?? null,
  }
}
