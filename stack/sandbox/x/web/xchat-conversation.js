// X Chat's bundle, part 3 of 3: a conversation (rows with a time label and no delivery marker, a
// composer that behaves like a React-controlled textarea and sends only with its button, the
// closed-inbox notice in its place for a lead who takes no DMs, polling for replies) and the route
// that picks the view.
/* global chat, h, mount, pageError, toast, T, viewerId, timeLabel, ensureKey, passcodePage, inboxPage */
// A conversation ------------------------------------------------------------------------------------

/** A React-controlled textarea: the DOM value follows the state; only input events change the state. */
function controlledTextarea(attrs, onChange) {
  const el = h('textarea', attrs)
  const native = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')
  let tracked = ''
  Object.defineProperty(el, 'value', {
    configurable: true,
    get() {
      return native.get.call(this)
    },
    set(value) {
      tracked = String(value)
      native.set.call(this, value)
    },
  })
  el.addEventListener('input', () => {
    const value = native.get.call(el)
    if (value === tracked) return // React sees no change: a value set without its own setter
    tracked = value
    onChange(value)
  })
  return {
    el,
    render(value) {
      if (native.get.call(el) !== value) native.set.call(el, value)
      tracked = value
    },
  }
}

/** What x.com shows in place of the composer when the peer takes no DMs from this account. */
function closedInboxNotice(peer) {
  return h(
    'div',
    { role: 'region', 'aria-label': 'Closed inbox' },
    h(
      'span',
      {},
      `@${peer.screen_name} has a closed inbox. If you know their X Number you can still message them.`,
    ),
    h('button', { type: 'button', onclick: () => location.assign('/i/chat') }, 'Not Now'),
    h('button', { type: 'button' }, 'Use X Number'),
  )
}

async function conversationPage(id) {
  const first = await chat(`/i/api/1.1/xchat/conversation/${id}.json`)
  if (first.status === 404 || !first.body?.peer) {
    if (first.ok || first.status === 404)
      return mount(
        h(
          'div',
          {},
          h('h2', {}, "This conversation doesn't exist"),
          h('a', { href: '/i/chat', role: 'link' }, 'Back to Chat'),
        ),
      )
    const panel = h('div', {})
    mount(panel)
    return pageError(panel)
  }
  const peer = first.body.peer
  // the sandbox's clock (tests move it): labels are read against it, as x.com's against its own
  const skew = first.body.now - Date.now()
  const serverNow = () => Date.now() + skew
  const state = { text: '', messages: new Map(), failed: new Map() }
  const inflight = new Set()
  const scroller = h('div', { 'data-testid': T('dm-message-scroller'), role: 'log', 'aria-live': 'polite' })
  const rows = new Map()
  const composer = controlledTextarea(
    {
      'data-testid': T('dm-composer-textarea'),
      placeholder: 'Start a new message',
      'aria-label': 'Start a new message',
      rows: 1,
    },
    (value) => {
      state.text = value
      render()
    },
  )
  const sendButton = h(
    'button',
    {
      type: 'button',
      'data-testid': T('dm-composer-send-button'),
      'aria-label': 'Send',
      onclick: () => void send(),
    },
    'Send',
  )
  const voiceButton = h('button', { type: 'button', 'aria-label': 'Record voice message' }, 'Voice')
  const form = h(
    'form',
    { 'data-testid': T('dm-composer-form'), onsubmit: (e) => e.preventDefault() },
    composer.el,
    voiceButton,
  )
  const panel = h(
    'div',
    { 'data-testid': T('dm-conversation-panel') },
    h(
      'div',
      { 'data-testid': T('dm-conversation-header') },
      h(
        'a',
        { href: `/${peer.screen_name}`, role: 'link' },
        h('span', { 'data-testid': T('dm-conversation-username') }, peer.name),
        ' ',
        h('span', { dir: 'ltr' }, `@${peer.screen_name}`),
      ),
    ),
    scroller,
    first.body.closed_inbox ? closedInboxNotice(peer) : form,
  )
  mount(panel)

  function rowOf(message) {
    const outgoing = message.sender_id === viewerId
    const time = h('span', { id: `${T('message-')}${message.id}-time` }, timeLabel(message.time, serverNow()))
    const row = h(
      'div',
      {
        'data-dm-message-row': message.id,
        'data-testid': `${T('message-')}${message.id}`,
        class: `flex ${outgoing ? 'justify-end' : 'justify-start'}`,
      },
      h(
        'div',
        { class: 'bubble' },
        h(
          'div',
          { 'data-testid': `${T('message-text-')}${message.id}` },
          h('span', { dir: 'auto' }, message.text),
        ),
      ),
      h('div', { class: 'meta' }, time),
    )
    scroller.append(row)
    scroller.scrollTop = scroller.scrollHeight
    return { row }
  }

  function render() {
    composer.render(state.text)
    const wantSend = state.text.length > 0
    if (wantSend && voiceButton.isConnected) voiceButton.replaceWith(sendButton)
    if (!wantSend && sendButton.isConnected) sendButton.replaceWith(voiceButton)
    for (const message of state.messages.values()) {
      let view = rows.get(message.id)
      if (!view) {
        view = rowOf(message)
        rows.set(message.id, view)
      }
      const failure = state.failed.get(message.id)
      if (failure && !view.row.querySelector('.error'))
        view.row.append(
          h('div', { class: 'error' }, h('span', {}, failure), ' ', h('button', { type: 'button' }, 'Retry')),
        )
    }
  }

  function merge(messages) {
    for (const message of messages) {
      if (inflight.has(message.id)) continue
      const known = state.messages.get(message.id)
      if (known && state.failed.has(message.id)) continue
      state.messages.set(message.id, { ...known, ...message })
    }
  }

  async function send() {
    const text = state.text
    if (!text.trim()) return
    const requestId = crypto.randomUUID()
    state.messages.set(requestId, {
      id: requestId,
      sender_id: viewerId,
      text,
      time: Date.now(),
      status: 'sending',
    })
    inflight.add(requestId)
    state.text = ''
    render()
    let answer
    try {
      answer = await chat('/i/api/1.1/xchat/send.json', { conversation_id: id, text, request_id: requestId })
    } catch {
      answer = null
    }
    inflight.delete(requestId)
    const error = answer?.body?.errors?.[0]
    if (answer?.ok && answer.body?.event) {
      state.messages.set(requestId, { ...state.messages.get(requestId), ...answer.body.event })
    } else if (answer && answer.status < 500 && error) {
      state.failed.set(requestId, 'Message not sent')
      toast(error.message)
    } else {
      state.failed.set(requestId, 'Failed to send')
      pageError(panel)
    }
    render()
  }

  merge(first.body.messages)
  render()
  setInterval(async () => {
    try {
      const answer = await chat(`/i/api/1.1/xchat/conversation/${id}.json`)
      if (answer.ok && answer.body) merge(answer.body.messages)
    } catch {
      // a poll that fails is retried by the next one
    }
    render()
  }, 1000)
}

async function start() {
  const path = location.pathname
  if (path === '/i/chat/pin/recovery') return passcodePage()
  if (!(await ensureKey())) {
    location.replace(`/i/chat/pin/recovery?next=${encodeURIComponent(path)}`)
    return
  }
  if (path === '/i/chat' || path === '/i/chat/') return inboxPage('primary')
  if (path === '/i/chat/requests') return inboxPage('requests')
  const id = /^\/i\/chat\/([^/]+)$/.exec(path)?.[1]
  if (id) return conversationPage(id)
  mount(h('div', {}, h('h2', {}, 'Page not found')))
}

void start()
