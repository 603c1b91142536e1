// X Chat's bundle, part 2 of 3: the passcode screen, the inbox and message requests, "new chat".
/* global api, chat, h, mount, overlays, pageError, STATE, T, threadPath, unwrap, b64, KEY_ITEM, viewerId, timeLabel */
// Passcode ----------------------------------------------------------------------------------------

function passcodePage() {
  const error = h('div', { role: 'alert', 'aria-live': 'assertive' })
  if (STATE.chatLocked) {
    error.textContent = 'X Chat is locked after too many incorrect attempts. Try again later.'
    return mount(h('section', { 'aria-label': 'Enter Passcode' }, h('h1', {}, 'Enter Passcode'), error))
  }
  const inputs = [1, 2, 3, 4].map((n) =>
    h('input', {
      type: 'password',
      inputmode: 'numeric',
      maxlength: 1,
      autocomplete: 'off',
      'aria-label': `Digit ${n}`,
    }),
  )
  const form = h(
    'div',
    {},
    h('p', {}, 'Enter your passcode to access your messages.'),
    h('div', { 'data-testid': T('pin-code-input-container') }, inputs),
    h('button', { type: 'button' }, 'Forgot passcode?'),
  )
  mount(h('section', { 'aria-label': 'Enter Passcode' }, h('h1', {}, 'Enter Passcode'), form, error))
  let busy = false
  async function submit() {
    if (busy) return
    busy = true
    const pin = inputs.map((x) => x.value).join('')
    const response = await api('/i/api/1.1/xchat/pin/verify.json', {
      method: 'POST',
      body: JSON.stringify({ pin }),
    })
    const body = await response.json().catch(() => ({}))
    busy = false
    if (response.ok) {
      const raw = await unwrap(body.wrapped_key, pin)
      localStorage.setItem(KEY_ITEM, b64(raw))
      const next = new URLSearchParams(location.search).get('next')
      location.replace(next?.startsWith('/i/chat') ? next : '/i/chat')
      return
    }
    for (const input of inputs) input.value = ''
    if (response.status === 423) {
      form.remove()
      error.textContent = 'X Chat is locked after too many incorrect attempts. Try again later.'
    } else {
      error.textContent = 'Incorrect passcode'
      inputs[0].focus()
    }
  }
  inputs.forEach((input, i) => {
    input.addEventListener('input', () => {
      input.value = input.value.replace(/\D/g, '').slice(-1)
      if (input.value && inputs[i + 1]) inputs[i + 1].focus()
      if (inputs.every((x) => x.value)) void submit()
    })
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Backspace' && !input.value && inputs[i - 1]) inputs[i - 1].focus()
    })
  })
  inputs[0].focus()
}

// Inbox and message requests ------------------------------------------------------------------------

function conversationRow(conversation, index, now) {
  const peer = conversation.peer
  const last = conversation.last
  const mine = last?.sender_id === viewerId
  const [a, b] = conversation.id.split('-')
  return h(
    'div',
    {
      'data-testid': `${T('dm-conversation-item-')}${a}:${b}`,
      'data-index': index,
      role: 'listitem',
      'aria-description': conversation.unread ? 'Unread messages' : null,
    },
    h(
      'a',
      { href: threadPath(conversation.id), role: 'link', class: 'row' },
      h(
        'div',
        {},
        h('span', { dir: 'auto' }, peer.name),
        ' ',
        h('span', { dir: 'ltr' }, `@${peer.screen_name}`),
        ' · ',
        last && last.time !== null
          ? h('span', { id: `${T('dm-conversation-item-')}${a}:${b}-time` }, timeLabel(last.time, now))
          : null,
      ),
      h('div', {}, h('span', { dir: 'auto' }, last ? `${mine ? 'You: ' : ''}${last.text}` : '')),
    ),
  )
}

function openNewChat() {
  const results = h('div', { role: 'listbox', 'aria-label': 'People' })
  const input = h('input', {
    type: 'text',
    'aria-label': 'Search people',
    placeholder: 'Search people',
    style: 'width:auto;font-size:1em;text-align:left',
  })
  const dialog = h(
    'div',
    { role: 'dialog', 'aria-label': 'New chat', 'aria-modal': 'true' },
    h('h2', {}, 'New chat'),
    input,
    results,
    h('button', { type: 'button', onclick: () => dialog.remove() }, 'Close'),
  )
  let timer
  input.addEventListener('input', () => {
    clearTimeout(timer)
    timer = setTimeout(async () => {
      const response = await api(`/i/api/1.1/search/typeahead.json?q=${encodeURIComponent(input.value)}`)
      const body = await response.json()
      results.replaceChildren(
        ...body.users.map((user) =>
          h(
            'div',
            {
              role: 'option',
              tabindex: 0,
              onclick: () => {
                const a = BigInt(user.id_str)
                const v = BigInt(viewerId)
                location.assign(threadPath(a < v ? `${a}-${v}` : `${v}-${a}`))
              },
            },
            `${user.name} @${user.screen_name}`,
          ),
        ),
      )
    }, 150)
  })
  overlays.append(dialog)
  input.focus()
}

async function inboxPage(folder) {
  const answer = await chat(`/i/api/1.1/xchat/inbox.json?folder=${folder}`)
  if (!answer.ok || !answer.body) {
    const panel = h('div', {})
    mount(panel)
    return pageError(panel)
  }
  const { conversations, requests, now } = answer.body
  const heading =
    folder === 'requests'
      ? [h('h2', {}, 'Message requests'), h('a', { href: '/i/chat', role: 'link' }, 'Back to Chat')]
      : [
          h('h2', {}, 'Chat'),
          h('button', { type: 'button', 'aria-label': 'New chat', onclick: openNewChat }, 'New chat'),
          h('a', { href: '/i/chat/requests', role: 'link' }, `Message requests (${requests})`),
        ]
  mount(
    h(
      'div',
      { 'data-testid': T('dm-inbox-panel') },
      h('header', {}, heading),
      h(
        'div',
        { 'data-testid': T('dm-conversation-scroller'), role: 'list' },
        conversations.length === 0
          ? h('p', {}, folder === 'requests' ? 'No message requests' : 'No messages yet')
          : null,
        conversations.map((conversation, index) => conversationRow(conversation, index, now)),
      ),
    ),
  )
}
