// The platform's two names: the adapters say `x`, the database (accounts.platform, packs, site
// changes) says `twitter`. This module holds both and is the one translation between them.

/** The platform as the adapters name it. */
export type Platform = 'x' | 'instagram'

/** The platform as the database names it (accounts.platform). */
export type AccountPlatform = 'twitter' | 'instagram'

export const accountPlatformOf = (platform: Platform): AccountPlatform =>
  platform === 'x' ? 'twitter' : 'instagram'

export const platformOf = (platform: AccountPlatform): Platform =>
  platform === 'twitter' ? 'x' : 'instagram'
