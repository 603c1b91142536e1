// Every URL, selector, endpoint and message text the Instagram adapter relies on. Instagram
// changes these often: when it does, this file is the one to fix. Pure data, no dependencies.

export const INSTAGRAM_BASE_URL = 'https://www.instagram.com'

export const IG_PATHS = {
  home: '/',
  login: '/accounts/login/',
  twoFactor: '/accounts/login/two_factor',
  oneTap: '/accounts/onetap/',
  challenge: '/challenge/',
  inbox: '/direct/inbox/',
  newMessage: '/direct/new/',
  thread: (id: string) => `/direct/t/${id}/`,
  profile: (username: string) => `/${encodeURIComponent(username)}/`,
} as const

export const IG_SELECTORS = {
  cookieDialog: 'div[role="dialog"]',
  /** Cookie banner buttons, the privacy-friendly choice first. */
  cookieButtons: ['Decline optional cookies', 'Only allow essential cookies', 'Allow all cookies'],
  username: 'input[name="username"]',
  password: 'input[name="password"]',
  submit: 'button[type="submit"]',
  loginError: '#slfErrorAlert',
  verificationCode: 'input[name="verificationCode"]',
  twoFactorError: '#twoFactorErrorAlert, [role="alert"]',
  signedIn: 'a[href="/direct/inbox/"]',
  notNow: ['Not now', 'Not Now'],
  composer: 'div[role="textbox"][contenteditable="true"][aria-label="Message"]',
  sendButton: 'div[role="button"]',
  sendLabel: 'Send',
  searchBox: 'input[name="queryBox"]',
  searchResult: '#search-results div[role="button"], div[role="dialog"] div[role="button"]',
  chatButton: ['Chat', 'Next'],
  noSearchResults: /no account found/i,
  dialog: 'div[role="dialog"]',
} as const

export const IG_APP_ID = '936619743392459'

export const IG_API = {
  profileInfo: (username: string) =>
    `/api/v1/users/web_profile_info/?username=${encodeURIComponent(username)}`,
  friendships: (userId: string, kind: 'followers' | 'following', count: number, maxId?: string) =>
    `/api/v1/friendships/${userId}/${kind}/?count=${count}${kind === 'followers' ? '&search_surface=follow_list_page' : ''}${maxId ? `&max_id=${encodeURIComponent(maxId)}` : ''}`,
  tagSections: (tag: string) => `/api/v1/tags/${encodeURIComponent(tag)}/sections/`,
  inbox: '/api/v1/direct_v2/inbox/?persistentBadging=true&folder=&limit=20&thread_message_limit=10',
  pendingInbox: '/api/v1/direct_v2/pending_inbox/?persistentBadging=true&limit=20',
  thread: (id: string, limit = 20) => `/api/v1/direct_v2/threads/${id}/?limit=${limit}`,
} as const

export const IG_FOLLOWERS_PAGE_SIZE = 12

/** Texts that are stop signals (dialogs, alerts, API messages); first match wins. */
export const IG_SIGNAL_TEXTS: {
  pattern: RegExp
  kind: 'automation' | 'rate_limit' | 'cannot_message' | 'challenge' | 'unauthenticated'
  code: string
}[] = [
  {
    pattern: /feedback_required|this action was blocked|we restrict certain activity|try again later/i,
    kind: 'automation',
    code: 'feedback_required',
  },
  { pattern: /please wait a few minutes/i, kind: 'rate_limit', code: '429' },
  {
    pattern: /can't receive your message|cannot receive your message/i,
    kind: 'cannot_message',
    code: 'cannot_receive',
  },
  {
    pattern: /checkpoint_required|challenge_required|help us confirm it's you/i,
    kind: 'challenge',
    code: 'checkpoint_required',
  },
  { pattern: /login_required/i, kind: 'unauthenticated', code: 'login_required' },
]
