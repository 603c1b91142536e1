// What social_account_credentials.ciphertext holds once decrypted: one JSON document per account,
// sealed with crypto.ts (`<keyId>:<base64>`; key_id repeats the key id). The runner decrypts it with
// runner/src/crypto.ts and reads these fields; nothing here ever goes back to a client.

import type { XCookie, XOfficialCredentials } from '@reachflow/domain'
import { encryptSecret, type Keyring, keyIdOf } from './crypto.ts'

export const CREDENTIALS_VERSION = 1

export interface InstagramCredentials {
  v: typeof CREDENTIALS_VERSION
  platform: 'instagram'
  password: string
  /** Base32 TOTP secret of the account's 2FA, when it has one. */
  totpSecret: string | null
}

export interface XCredentials {
  v: typeof CREDENTIALS_VERSION
  platform: 'twitter'
  /** Normalised for the browser (x-cookies.ts): name, value, domain, path, expires, httpOnly, secure, sameSite. */
  cookies: XCookie[]
  /** The 4-digit X Chat passcode, when the customer gave it. */
  chatPasscode: string | null
}

/** The account proxy's login, sealed with the rest (the table keeps only its host and port). */
export interface ProxyCredentials {
  username: string
  password: string
}

/** Official X accounts hold their developer app's keys and OAuth tokens instead (domain/x-api.ts). */
export type AccountCredentials = (InstagramCredentials | XCredentials) & { proxy?: ProxyCredentials | null }

export interface SealedCredentials {
  keyId: string
  ciphertext: string
}

export async function sealCredentials(
  credentials: AccountCredentials | XOfficialCredentials,
  keyring?: Keyring,
): Promise<SealedCredentials> {
  const ciphertext = await encryptSecret(JSON.stringify(credentials), keyring)
  return { keyId: keyIdOf(ciphertext), ciphertext }
}

/**
 * An official Instagram account's seal (connection = 'official'): the long-lived token of Instagram
 * API with Instagram Login, when it expires and what the customer granted. No password exists.
 */
export interface InstagramOfficialCredentials {
  v: typeof CREDENTIALS_VERSION
  platform: 'instagram'
  connection: 'official'
  accessToken: string
  /** ISO time; social_account_credentials.token_expires_at repeats it. */
  expiresAt: string
  permissions: string[]
  /** The Instagram professional account id (webhooks' entry.id). */
  instagramUserId: string
}

export async function sealOfficialInstagram(
  credentials: InstagramOfficialCredentials,
  keyring?: Keyring,
): Promise<SealedCredentials> {
  const ciphertext = await encryptSecret(JSON.stringify(credentials), keyring)
  return { keyId: keyIdOf(ciphertext), ciphertext }
}
