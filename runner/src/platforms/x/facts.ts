// Every fact about x.com the X adapter relies on: paths, selectors and ready markers, texts and
// patterns, GraphQL operation names. X changes these without notice; when it does, this data is the
// fix (in code, or as an operator-published pack of the same shape that replaces it at run time).
// Plain JSON: regexes as {source, flags}, paths with {placeholders}. The adapter reads it only through
// the `facts` object of its session. Chat selectors are relative to X Chat's shadow host.

export const X_FACTS = {
  version: '2026-11-29.1',
  baseUrl: 'https://x.com',
  paths: {
    home: '/home',
    messages: '/messages',
    chat: '/i/chat',
    chatRequests: '/i/chat/requests',
    chatPin: '/i/chat/pin/recovery',
    thread: '/i/chat/{id}',
    profile: '/{username}',
    followers: '/{username}/followers',
    following: '/{username}/following',
    search: '/search?q={query}&src=typed_query&f={filter}',
  },
  /** Where X sends a session it signed out, or an account it locked, wherever the browser was going. */
  urlSigns: {
    signedOut: ['/i/flow/login', '/login', '/i/flow/single_sign_on'],
    locked: ['/account/access'],
  },
  /** A one-to-one thread's path; the group is the thread id (both user ids joined by "-"). */
  threadPath: { source: '^/i/chat/(\\d+-\\d+)$', flags: '' },
  /** X's twid cookie holds the signed-in user's id (u%3D<id>). */
  userIdCookie: { name: 'twid', pattern: { source: '^u(?:%3D|=)(\\d+)$', flags: '' } },
  app: {
    signedIn: '[data-testid="SideNav_AccountSwitcher_Button"]',
    primaryColumn: '[data-testid="primaryColumn"]',
    loading: '[role="progressbar"]',
    emptyState: '[data-testid="emptyState"]',
    profileName: '[data-testid="UserName"]',
    dmFromProfile: '[data-testid="sendDMFromProfile"]',
    alert: '[role="alert"]',
    toast: '[data-testid="toast"]',
  },
  chat: {
    host: '[data-testid="xchatEmbedRoute"]',
    overlays: '[data-testid="xchatEmbedOverlays"]',
    loading: '[data-testid="dm-message-list-spinner-slot"]',
    inboxPanel: '[data-testid="dm-inbox-panel"]',
    conversationPanel: '[data-testid="dm-conversation-panel"]',
    conversationScroller: '[data-testid="dm-conversation-scroller"]',
    conversationRow: '[data-testid^="dm-conversation-item-"]',
    /** The row's test id is this prefix and the two user ids joined by ":". */
    conversationRowPrefix: 'dm-conversation-item-',
    conversationRowLink: 'a[href^="/i/chat/"]',
    /** The row's time: a text label ("now", "5m", "10:09 AM", "Yesterday"); no machine-readable time. */
    conversationRowTime: '[id$="-time"]',
    messageScroller: '[data-testid="dm-message-scroller"]',
    messageRow: '[data-dm-message-row]',
    messageRowIdAttribute: 'data-dm-message-row',
    /** A message's text holder ({id}: the row's id, CSS-escaped); the words in its span[dir="auto"]. */
    messageText: '[data-testid="message-text-{id}"]',
    messageWords: 'span[dir="auto"]',
    messageTime: '[id$="-time"]',
    /** Rows are laid out by who sent them. */
    sentClass: 'justify-end',
    receivedClass: 'justify-start',
    /**
     * A delivery icon of a sent message, if the page draws one (no reader of x.com describes it):
     * extra evidence only; a send is proven by its own new row holding the exact text.
     */
    messageStatus: '[role="img"][aria-label]',
    composer: 'form[data-testid="dm-composer-form"] textarea[data-testid="dm-composer-textarea"]',
    sendButton: '[data-testid="dm-composer-send-button"]',
    pinContainer: '[data-testid="pin-code-input-container"]',
    pinInput: 'input',
    alert: '[role="alert"]',
    /** Buttons inside the chat, such as the closed-inbox notice's "Not Now" / "Use X Number". */
    button: 'button, [role="button"]',
  },
  texts: {
    /** Labels of a sent message's status icon, where there is one. */
    sendStatus: {
      delivered: ['Sent', 'Delivered', 'Seen', 'Read'],
      pending: ['Sending'],
    },
    /** Texts on a message or the page that mean a send did not go through. */
    sendErrors: ['Failed to send', 'Message not sent', "Couldn't send"],
    /**
     * What x.com shows in place of the composer for a lead who takes no DMs ("@handle has a closed
     * inbox. If you know their X Number you can still message them."), with these buttons. A fact
     * about the lead: skip the lead, blame neither the account nor the site.
     */
    closedInbox: {
      notice: { source: 'has a closed inbox', flags: 'i' },
      actions: ['Not Now', 'Use X Number'],
    },
    /** Time labels of messages and inbox rows that say how long ago, read against the read time. */
    timeLabels: {
      now: { source: '^now$', flags: 'i' },
      ago: { source: '^(\\d+)\\s*([smhd])$', flags: 'i' },
      clock: { source: '^(\\d{1,2}):(\\d{2})\\s*([AP]M)$', flags: 'i' },
      yesterday: { source: '^yesterday', flags: 'i' },
    },
    /** An inbox row's labels say this when it has unread messages. */
    unread: { source: 'unread', flags: 'i' },
    /** The preview of a conversation whose last message is ours starts like this. */
    ownPreviewPrefix: 'You: ',
    handle: { source: '@([A-Za-z0-9_]{1,15})', flags: '' },
    missingConversation: { source: 'this conversation doesn.t exist', flags: 'i' },
    passcodeIncorrect: { source: 'incorrect passcode', flags: 'i' },
    passcodeLocked: { source: 'too many (incorrect )?attempts|x chat is locked', flags: 'i' },
    /** Page and toast texts that are stop signals; first match wins (476 before 349: both say "cannot send"). */
    signals: [
      { pattern: { source: 'only accept message requests from verified', flags: 'i' }, code: '476' },
      { pattern: { source: 'cannot send messages to this user', flags: 'i' }, code: '349' },
      { pattern: { source: 'looks like it might be automated', flags: 'i' }, code: '226' },
      { pattern: { source: 'account is temporarily locked', flags: 'i' }, code: '326' },
      { pattern: { source: 'rate limit exceeded', flags: 'i' }, code: '88' },
      { pattern: { source: 'could not authenticate you', flags: 'i' }, code: '32' },
      { pattern: { source: 'verify your identity', flags: 'i' }, code: 'verify_identity' },
      {
        pattern: { source: 'something went wrong\\. try reloading', flags: 'i' },
        code: 'something_went_wrong',
      },
    ],
  },
  /**
   * X's internal GraphQL as the pages call it. The adapter never calls it: it drives the page and
   * reads the answers the page receives (query ids and transaction ids are the page's own).
   */
  graphql: {
    pathPrefix: '/i/api/graphql/',
    variablesParam: 'variables',
    cursorVariable: 'cursor',
    operations: {
      user: 'UserByScreenName',
      followers: 'Followers',
      following: 'Following',
      search: 'SearchTimeline',
    },
    /** The search page's tab per source: Latest posts for hashtags, People for keywords. */
    searchFilter: { hashtag: 'live', keyword: 'user' },
    rateLimitHeaders: {
      limit: 'x-rate-limit-limit',
      remaining: 'x-rate-limit-remaining',
      reset: 'x-rate-limit-reset',
    },
  },
}

export type XFacts = typeof X_FACTS
