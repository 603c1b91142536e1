// X API v2's OAuth 2.0 state in the sandbox: developer apps (confidential clients with registered
// callback URLs), one-use authorization codes bound to their PKCE challenge, and grants (an access
// token valid 2 hours, a refresh token only with offline.access that rotates on every use). Kept
// in memory and mirrored to its own file beside the X sandbox's world, on the sandbox's clock.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { readSaved, SavedFile } from '../social/saved-file.ts'

/** The scopes X documents for OAuth 2.0 user context (the ones this sandbox serves are a subset). */
export const KNOWN_SCOPES = [
  'tweet.read',
  'tweet.write',
  'tweet.moderate.write',
  'users.email',
  'users.read',
  'follows.read',
  'follows.write',
  'offline.access',
  'space.read',
  'mute.read',
  'mute.write',
  'like.read',
  'like.write',
  'list.read',
  'list.write',
  'block.read',
  'block.write',
  'bookmark.read',
  'bookmark.write',
  'dm.read',
  'dm.write',
  'media.write',
] as const

/** Access tokens live 2 hours (docs.x.com, OAuth 2.0 Authorization Code with PKCE). */
export const ACCESS_TOKEN_SECONDS = 7200
/** An authorization code must be exchanged within 30 seconds. */
export const CODE_SECONDS = 30

export interface DevApp {
  clientId: string
  clientSecret: string
  name: string
  callbackUrls: string[]
  createdAt: number
}

export interface AuthCode {
  code: string
  clientId: string
  accountId: string
  redirectUri: string
  scopes: string[]
  challenge: string
  challengeMethod: 'S256' | 'plain'
  expiresAt: number
}

export interface Grant {
  id: string
  clientId: string
  accountId: string
  scopes: string[]
  accessToken: string
  accessExpiresAt: number
  refreshToken?: string
  revoked: boolean
}

interface Saved {
  apps: DevApp[]
  grants: Grant[]
}

/** X's tokens and ids are URL-safe base64 of random bytes; the sandbox's look alike. */
const token = (bytes: number) => randomBytes(bytes).toString('base64url')

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url')
}

export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

export class OAuthStore {
  apps = new Map<string, DevApp>()
  codes = new Map<string, AuthCode>()
  grants: Grant[] = []
  readonly #saved: SavedFile

  constructor(
    file: string | undefined,
    readonly now: () => number,
  ) {
    const saved = readSaved<Saved>(file)
    if (saved) {
      this.apps = new Map(saved.apps.map((a) => [a.clientId, a]))
      this.grants = saved.grants
    }
    this.#saved = new SavedFile(file, (): Saved => ({ apps: [...this.apps.values()], grants: this.grants }))
  }

  createApp(name: string, callbackUrls: string[]): DevApp {
    // X's client ids are base64 of "<id>:1:ci"; secrets are 50 characters
    const clientId = Buffer.from(`${token(12)}:1:ci`).toString('base64url')
    const app: DevApp = {
      clientId,
      clientSecret: token(38).slice(0, 50),
      name,
      callbackUrls,
      createdAt: this.now(),
    }
    this.apps.set(clientId, app)
    this.changed()
    return app
  }

  /** A new secret: the old one stops working at once, as "Regenerate" does in the developer portal. */
  regenerateSecret(app: DevApp): DevApp {
    app.clientSecret = token(38).slice(0, 50)
    this.changed()
    return app
  }

  issueCode(fields: Omit<AuthCode, 'code' | 'expiresAt'>): AuthCode {
    const code: AuthCode = { ...fields, code: token(64), expiresAt: this.now() + CODE_SECONDS * 1000 }
    this.codes.set(code.code, code)
    return code
  }

  /** Takes the code (one use: a second exchange finds nothing), if it is still valid. */
  takeCode(value: string): AuthCode | undefined {
    const code = this.codes.get(value)
    this.codes.delete(value)
    return code && code.expiresAt > this.now() ? code : undefined
  }

  grant(clientId: string, accountId: string, scopes: string[]): Grant {
    const grant: Grant = {
      id: token(9),
      clientId,
      accountId,
      scopes,
      accessToken: token(68),
      accessExpiresAt: this.now() + ACCESS_TOKEN_SECONDS * 1000,
      ...(scopes.includes('offline.access') ? { refreshToken: token(68) } : {}),
      revoked: false,
    }
    this.grants.push(grant)
    this.changed()
    return grant
  }

  /** Rotation: a new access and refresh token; the used refresh token never works again. */
  refresh(grant: Grant): Grant {
    grant.accessToken = token(68)
    grant.accessExpiresAt = this.now() + ACCESS_TOKEN_SECONDS * 1000
    grant.refreshToken = token(68)
    this.changed()
    return grant
  }

  byAccessToken(value: string): Grant | undefined {
    return this.grants.find((g) => g.accessToken === value)
  }

  byRefreshToken(value: string): Grant | undefined {
    return this.grants.find((g) => g.refreshToken === value)
  }

  /** The grant whose access token is valid now (not expired, not revoked). */
  liveGrant(accessToken: string): Grant | undefined {
    const grant = this.byAccessToken(accessToken)
    return grant && !grant.revoked && grant.accessExpiresAt > this.now() ? grant : undefined
  }

  revoke(grant: Grant): void {
    grant.revoked = true
    this.changed()
  }

  changed(): void {
    this.#saved.changed()
  }

  saveNow(): void {
    this.#saved.saveNow()
  }
}
