// The browser-side script of the sandbox's thread page. It renders a window of the newest messages
// (older ones enter as the list scrolls up and the newest leave, as Instagram's virtualised list
// does), sends with the Send button only (Enter just breaks the line: nothing public says Enter
// sends), shows its own message at once and marks it failed when the send is refused, and reads
// new messages through the page's own GraphQL-style calls, never the direct_v2 JSON.

export const THREAD_JS = `
const list = document.querySelector('[data-pagelet="IGDMessagesList"]');
const box = document.querySelector('div[role="textbox"][contenteditable="true"][aria-label="Message"]');
const send = document.getElementById('send-button');
const all = DATA.messages.slice();
const MAX = DATA.rendered;
let end = all.length, start = Math.max(0, end - MAX);
function row(m) {
  const r = document.createElement('div'); r.setAttribute('role', 'none');
  r.className = 'x78zum5 ' + (m.mine ? 'x13a6bvl' : 'x1nhvcw1') + (m.pending ? ' xpending' : '');
  const b = document.createElement('div'); b.dir = 'auto'; b.className = 'x1n2onr6'; b.textContent = m.text; r.append(b);
  if (m.failed) { const f = document.createElement('span'); f.textContent = 'Not Delivered'; r.append(f); }
  return r;
}
function render() { list.replaceChildren(...all.slice(start, end).reverse().map(row)); }
function add(m) {
  const atBottom = end === all.length;
  all.push(m);
  if (atBottom) { end = all.length; if (end - start > MAX) start = end - MAX; }
  render();
}
list.addEventListener('scroll', () => {
  // column-reverse: scrollTop is 0 at the bottom and negative above it
  const fromTop = list.scrollHeight - list.clientHeight + list.scrollTop;
  if (fromTop < 40 && start > 0) {
    start = Math.max(0, start - 10); if (end - start > MAX + 10) end = start + MAX + 10; render();
  } else if (list.scrollTop > -40 && end < all.length) {
    end = Math.min(all.length, end + 10); if (end - start > MAX + 10) start = end - MAX - 10; render();
  }
});
function graphql(name, variables) {
  return igFetch('/api/graphql', { method: 'POST', form: { fb_api_req_friendly_name: name, variables: JSON.stringify(variables) } });
}
const sync = () => { send.hidden = !box.textContent.trim(); };
box.addEventListener('input', sync); sync();
send.addEventListener('click', submit);
async function submit() {
  const text = box.innerText.replace(/\\n$/, '');
  if (!text.trim()) return;
  const context = String(Date.now()) + String(Math.floor(Math.random() * 1e6));
  const m = { id: null, text, mine: true, context, pending: true };
  add(m);
  box.textContent = ''; sync();
  let r, body;
  try {
    r = await graphql('IGDirectTextSendMutation', { thread_id: DATA.threadId, text, offline_threading_id: context });
    body = await r.json().catch(() => ({}));
  } catch (e) { m.pending = false; m.failed = true; render(); return; }
  m.pending = false;
  if (r.ok) { m.id = body.data.message_id; render(); return; }
  m.failed = true; render();
  if (body.message === 'feedback_required') dialog(body.feedback_title, body.feedback_message);
  else if (body.message === 'login_required') location.assign('/accounts/login/');
  else dialog('Message failed to send', body.message || 'Something went wrong.');
}
setInterval(async () => {
  const r = await graphql('IGDThreadMessagesQuery', { thread_id: DATA.threadId, last: MAX });
  if (!r.ok) return;
  const body = await r.json();
  let arrived;
  for (const item of body.data.messages) {
    const known = all.find((m) => m.id === item.id || m.context === item.context);
    if (known) { if (!known.id) { known.id = item.id; known.pending = false; render(); } continue; }
    add({ id: item.id, text: item.text, mine: item.mine, context: item.context });
    if (!item.mine) arrived = item.id;
  }
  // an open thread marks what arrives in it seen, as Instagram's web client does
  if (arrived) graphql('IGDMarkSeenMutation', { thread_id: DATA.threadId, message_id: arrived }).catch(() => {});
}, 1500);
`
