// Every URL, selector, endpoint, query id and message text the X adapter relies on. X changes
// these often: when it does, this file is the one to fix. Pure data, no dependencies.

export const X_BASE_URL = 'https://x.com'

export const X_PATHS = {
  home: '/home',
  login: '/i/flow/login',
  accountAccess: '/account/access',
  messages: '/messages',
  chat: '/i/chat',
  chatRequests: '/i/chat/requests',
  chatPin: '/i/chat/pin/recovery',
  thread: (id: string) => `/i/chat/${id}`,
  profile: (username: string) => `/${encodeURIComponent(username)}`,
} as const

/** URL prefixes that mean "signed out" or "locked" wherever the browser lands. */
export const X_URL_SIGNS = {
  signedOut: ['/i/flow/login', '/login', '/i/flow/single_sign_on'],
  locked: ['/account/access'],
} as const

export const X_SELECTORS = {
  signedIn: '[data-testid="SideNav_AccountSwitcher_Button"]',
  emptyState: '[data-testid="emptyState"]',
  profileName: '[data-testid="UserName"]',
  dmFromProfile: '[data-testid="sendDMFromProfile"]',
  pinContainer: '[data-testid="pin-code-input-container"]',
  pinInputs: '[data-testid="pin-code-input-container"] input',
  pinError: '[data-testid="pin-code-error"]',
  composer: 'textarea[data-testid="dm-composer-textarea"], [data-testid="dmComposerTextInput"]',
  sendButton: '[data-testid="dm-composer-send-button"], [data-testid="dmComposerSendButton"]',
  messageList: '[data-testid="dm-message-list"]',
  messageRow: '[data-dm-message-row]',
  messageRowId: 'data-dm-message-row',
  messageText: '[data-testid="dm-message-text"]',
  messageDirection: 'data-message-direction',
  sendStatus: 'data-send-status',
  inboxRow: '[data-testid^="dm-conversation-item-"]',
  inboxRowPrefix: 'dm-conversation-item-',
  requestRow: '[data-testid^="dm-message-request-item-"]',
  requestRowPrefix: 'dm-message-request-item-',
  inboxList: '[data-testid="dm-inbox-list"]',
  requestsList: '[data-testid="dm-requests-list"]',
  rowUsername: '[data-testid="dm-conversation-username"]',
  rowPreview: '[data-testid="dm-conversation-preview"]',
  rowUnread: '[data-testid="dm-conversation-unread"]',
  toast: '[data-testid="toast"]',
  alert: '[role="alert"]',
} as const

/** data-send-status values: which mean delivered, which failed, which are still in flight. */
export const X_SEND_STATUS = {
  delivered: ['sent', 'delivered', 'read'],
  failed: ['failed', 'error'],
  pending: ['pending', 'sending'],
} as const

/** Texts on the page that mean a send did not go through (any of them makes a send unconfirmed). */
export const X_SEND_ERROR_TEXTS = ['Failed to send', 'Message not sent', "Couldn't send"]

export const X_PASSCODE_TEXTS = {
  incorrect: /incorrect passcode/i,
  locked: /too many (incorrect )?attempts|x chat is locked/i,
}

/** Page and toast texts that are stop signals; first match wins (476 before 349: both say "cannot send"). */
export const X_SIGNAL_TEXTS: { pattern: RegExp; code: string }[] = [
  { pattern: /only accept message requests from verified/i, code: '476' },
  { pattern: /cannot send messages to this user/i, code: '349' },
  { pattern: /looks like it might be automated/i, code: '226' },
  { pattern: /account is temporarily locked/i, code: '326' },
  { pattern: /rate limit exceeded/i, code: '88' },
  { pattern: /could not authenticate you/i, code: '32' },
  { pattern: /verify your identity/i, code: 'verify_identity' },
  { pattern: /something went wrong\. try reloading/i, code: 'something_went_wrong' },
]

/** The public bearer token the x.com web client sends with internal API calls. */
export const X_WEB_BEARER =
  'AAAAAAAAAAAAAAAAAAAAANRILgAAAAAAnNwIzUejRCOuH5E6I8xnZz4puTs%3D1Zv7ttfk8LF81IUq16cHjhLTvJu4FA33AGWWjCpTnA'

export const X_API = {
  verifyCredentials: '/i/api/1.1/account/verify_credentials.json?skip_status=true',
  graphql: (queryId: string, operation: string) => `/i/api/graphql/${queryId}/${operation}`,
} as const

/** Internal GraphQL query ids (they rotate with web app releases). */
export const X_QUERY_IDS = {
  UserByScreenName: 'x3RLKWW1Tl7JgU7YtGxuzw',
  Followers: 'SCu9fVIlCUm-BM8-tL5pkQ',
  Following: 'S5xUN9s2v4xk50KWGGvyvQ',
  SearchTimeline: 'VhUd6vHVmLBcw0uX-6jMLA',
} as const

/** Feature switches the web client sends with timeline queries. */
export const X_GRAPHQL_FEATURES = {
  rweb_video_screen_enabled: false,
  profile_label_improvements_pcf_label_in_post_enabled: true,
  responsive_web_graphql_timeline_navigation_enabled: true,
  responsive_web_graphql_skip_user_profile_image_extensions_enabled: false,
  creator_subscriptions_tweet_preview_api_enabled: true,
  longform_notetweets_consumption_enabled: true,
  responsive_web_enhance_cards_enabled: false,
} as const

export const X_SCRAPE_PAGE_SIZE = 20

/** Headers of the web client's internal API calls (cookie header added for HTTP calls). */
export function xApiHeaders(csrfToken: string): Record<string, string> {
  return {
    authorization: `Bearer ${X_WEB_BEARER}`,
    'x-csrf-token': csrfToken,
    'x-twitter-auth-type': 'OAuth2Session',
    'x-twitter-active-user': 'yes',
    'x-twitter-client-language': 'en',
    'content-type': 'application/json',
  }
}
