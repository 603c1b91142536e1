// Every fact about instagram.com the Instagram adapter relies on: paths, web API endpoints,
// selectors, button texts and stop-signal patterns. Instagram changes these without notice (its login
// fields lost their name attributes in February 2026); this data is the fix, in code or as an
// operator-published pack of the same shape that replaces it at run time. Plain JSON: regexes as
// {source, flags}, paths with {placeholders}. The adapter reads it only through its session's `facts`.

export const INSTAGRAM_FACTS = {
  version: '2026-11-29.2',
  baseUrl: 'https://www.instagram.com',
  /** The web app's id, sent (as api.headers.appId) with every web API call. */
  appId: '936619743392459',
  /** The cookies Instagram sets: the session, the signed-in user's id, the CSRF token. */
  cookies: { session: 'sessionid', userId: 'ds_user_id', csrf: 'csrftoken' },
  paths: {
    home: '/',
    login: '/accounts/login/',
    twoFactor: '/accounts/login/two_factor',
    oneTap: '/accounts/onetap/',
    challenge: '/challenge/',
    inbox: '/direct/inbox/',
    requests: '/direct/requests/',
    newMessage: '/direct/new/',
    thread: '/direct/t/{id}/',
    profile: '/{username}/',
  },
  threadPath: { source: '^/direct/t/(\\d+)/?$', flags: '' },
  api: {
    profileInfo: '/api/v1/users/web_profile_info/?username={username}',
    followers: '/api/v1/friendships/{id}/followers/?count={count}&search_surface=follow_list_page',
    following: '/api/v1/friendships/{id}/following/?count={count}',
    tagSections: '/api/v1/tags/{tag}/sections/',
    inbox: '/api/v1/direct_v2/inbox/?persistentBadging=true&folder=&limit=20&thread_message_limit=10',
    pendingInbox: '/api/v1/direct_v2/pending_inbox/?persistentBadging=true&limit=20',
    thread: '/api/v1/direct_v2/threads/{id}/?limit={limit}',
    /** The query parameter (or form field) that carries a listing's cursor. */
    cursorParam: 'max_id',
    /** The headers instagram.com's own client sends with these calls (the CSRF one from the cookie). */
    headers: { appId: 'x-ig-app-id', csrf: 'x-csrftoken', requestedWith: 'x-requested-with' },
    requestedWith: 'XMLHttpRequest',
  },
  /** Followers/following asked per page. */
  followersPageSize: 12,
  selectors: {
    cookieDialog: 'div[role="dialog"]',
    /** The login fields have no name attributes (February 2026): found by type. */
    username: 'form input[type="text"]',
    password: 'form input[type="password"]',
    /** Buttons are found by role and text. */
    button: '[role="button"], button',
    loginError: '#slfErrorAlert, [role="alert"]',
    /** Inputs found by `name` broke on the login form in February 2026: the 2FA and search boxes by label, type and role. */
    verificationCode:
      'form input[aria-label="Security Code"], form input[autocomplete="one-time-code"], form input[type="tel"]',
    twoFactorError: '#twoFactorErrorAlert, [role="alert"]',
    signedIn: 'a[href="/direct/inbox/"]',
    composer: 'div[role="textbox"][contenteditable="true"][aria-label="Message"]',
    /**
     * The thread's messages (2026: no role=row; column-reverse, newest at the bottom, virtualised);
     * each message's words in a dir=auto element; one's own laid out flex-end (read from the style).
     */
    messageList: '[data-pagelet="IGDMessagesList"]',
    messageText: '[dir="auto"]',
    /** Where the thread page shows a notice in place of the composer. */
    threadMain: 'main',
    searchBox:
      'div[role="dialog"] input[aria-label="Search"], div[role="dialog"] input[type="text"], div[role="dialog"] input[type="search"]',
    searchResult: '#search-results div[role="button"], div[role="dialog"] div[role="button"]',
    dialog: 'div[role="dialog"]',
    /** An inbox row: a link to its thread holding the name, the last message and an unread mark. */
    inboxRow: 'main a[href*="/direct/t/"]',
    unreadMark: '[aria-label="Unread" i]',
  },
  texts: {
    /** Cookie banner buttons, the privacy-friendly choice first. */
    cookieButtons: ['Decline optional cookies', 'Only allow essential cookies', 'Allow all cookies'],
    logIn: ['Log in', 'Log In'],
    confirmCode: ['Confirm'],
    notNow: ['Not now', 'Not Now'],
    notNowPrompt: { source: 'not now', flags: 'i' },
    chatButton: ['Chat', 'Next'],
    /** The composer's send button (pressed in preference to Enter, which may only break the line). */
    send: ['Send'],
    /** A notice in place of the composer: the lead takes no messages from us (skip the lead). */
    leadRefusal: {
      source:
        "can't receive your message|cannot receive your message|can't be received|(isn't|not) accepting message requests|you can't message this account|can't message this account|has restricted",
      flags: 'i',
    },
    /** A message of ours the page marked as not sent. */
    sendFailed: { source: "not delivered|failed to send|couldn't send", flags: 'i' },
    /** An inbox row's preview of our own last message. */
    ownPreview: { source: '^You: ', flags: '' },
    noSearchResults: { source: 'no account found', flags: 'i' },
    privateList: { source: 'not authorized', flags: 'i' },
    /** Texts that are stop signals (dialogs, alerts, API messages); first match wins. */
    signals: [
      {
        pattern: {
          source: 'feedback_required|this action was blocked|we restrict certain activity|try again later',
          flags: 'i',
        },
        kind: 'automation',
        code: 'feedback_required',
      },
      { pattern: { source: 'please wait a few minutes', flags: 'i' }, kind: 'rate_limit', code: '429' },
      {
        pattern: {
          source:
            "can't receive your message|cannot receive your message|can't be received|(isn't|not) accepting message requests",
          flags: 'i',
        },
        kind: 'cannot_message',
        code: 'cannot_receive',
      },
      {
        pattern: { source: "checkpoint_required|challenge_required|help us confirm it's you", flags: 'i' },
        kind: 'challenge',
        code: 'checkpoint_required',
      },
      { pattern: { source: 'login_required', flags: 'i' }, kind: 'unauthenticated', code: 'login_required' },
    ],
  },
}

export type InstagramFacts = typeof INSTAGRAM_FACTS
