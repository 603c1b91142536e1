// What the instagram-official function answers the routes web reads (connect, finish, an account's
// media). The function builds each with `satisfies` the type, and web's callers read the same name.

/** POST /connect: Instagram's consent page for this connect (one use, 10 minutes). */
export interface InstagramConnectStarted {
  url: string
}

/** POST /finish: the account connected, by its Instagram username. */
export interface InstagramConnected {
  username: string
}

/** One post or reel as the automation picker lists it. */
export interface InstagramMediaItem {
  id: string
  caption: string
  kind: 'post' | 'reel'
  permalink: string | null
  postedAt: string | null
}

/** GET /accounts/:id/media: the account's latest posts and reels. */
export interface InstagramMediaList {
  media: InstagramMediaItem[]
}
