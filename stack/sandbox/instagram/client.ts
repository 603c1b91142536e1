// Browser-side scripts of the Instagram sandbox pages: the cookie banner and login form, the
// two-factor form and "new message" search (the thread page's is in thread-client.ts).

export const LOGIN_JS = `
const banner = document.getElementById('cookie-banner');
if (banner) banner.querySelectorAll('button').forEach(b => b.addEventListener('click', () => {
  document.cookie = 'ig_nrcb=1; path=/; max-age=31536000'; banner.remove();
}));
const form = document.getElementById('loginForm');
const user = form.querySelector('input[type="text"]');
const pass = form.querySelector('input[type="password"]');
const submit = form.querySelector('[role="button"]');
const alertBox = document.getElementById('slfErrorAlert');
const ready = () => Boolean(user.value && pass.value.length >= 6);
const sync = () => { submit.setAttribute('aria-disabled', String(!ready())); };
form.addEventListener('input', sync);
submit.addEventListener('click', () => logIn());
submit.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); logIn(); } });
form.addEventListener('keydown', (e) => { if (e.key === 'Enter' && e.target !== submit) { e.preventDefault(); logIn(); } });
form.addEventListener('submit', (e) => e.preventDefault());
let busy = false;
async function logIn() {
  if (busy || !ready()) return;
  busy = true; alertBox.textContent = ''; submit.setAttribute('aria-disabled', 'true');
  const next = new URLSearchParams(location.search).get('next') || '/';
  let r, body;
  try {
    r = await igFetch('/api/v1/web/accounts/login/ajax/', { method: 'POST', form: {
      username: user.value,
      enc_password: '#PWD_INSTAGRAM_BROWSER:0:' + Math.floor(Date.now() / 1000) + ':' + pass.value,
      queryParams: '{}', optIntoOneTap: 'false' } });
    body = await r.json();
  } catch (err) { busy = false; alertBox.textContent = 'Sorry, there was a problem with your request.'; sync(); return; }
  busy = false;
  if (body.authenticated) { location.assign('/accounts/onetap/?next=' + encodeURIComponent(next)); return; }
  if (body.two_factor_required) {
    sessionStorage.setItem('ig:2fa', JSON.stringify({ identifier: body.two_factor_info.two_factor_identifier, username: body.two_factor_info.username, next }));
    location.assign('/accounts/login/two_factor?next=' + encodeURIComponent(next)); return;
  }
  if (body.checkpoint_url) { location.assign(body.checkpoint_url); return; }
  if (r.status === 429) alertBox.textContent = body.message;
  else if (body.user === false) alertBox.textContent = ${JSON.stringify("The username you entered doesn't belong to an account. Please check your username and try again.")};
  else alertBox.textContent = 'Sorry, your password was incorrect. Please double-check your password.';
  sync();
}
`

export const TWO_FACTOR_JS = `
const state = JSON.parse(sessionStorage.getItem('ig:2fa') || 'null');
if (!state) location.replace('/accounts/login/');
const form = document.getElementById('twoFactorForm');
const alertBox = document.getElementById('twoFactorErrorAlert');
form.addEventListener('submit', async (e) => {
  e.preventDefault(); alertBox.textContent = '';
  const r = await igFetch('/api/v1/web/accounts/login/ajax/two_factor/', { method: 'POST', form: {
    username: state.username, identifier: state.identifier, verificationCode: form.querySelector('input[aria-label="Security Code"]').value, queryParams: '{}' } });
  const body = await r.json().catch(() => ({}));
  if (body.authenticated) { sessionStorage.removeItem('ig:2fa'); location.assign('/accounts/onetap/?next=' + encodeURIComponent(state.next || '/')); return; }
  alertBox.textContent = body.message || 'Please check the security code and try again.';
});
`

export const NEW_MESSAGE_JS = `
const query = document.querySelector('[role="dialog"] input[type="text"]');
const results = document.getElementById('search-results');
const chat = document.getElementById('chat-button');
let chosen = null, timer;
query.addEventListener('input', () => {
  clearTimeout(timer);
  timer = setTimeout(async () => {
    const r = await igFetch('/api/v1/direct_v2/ranked_recipients/?mode=raven&query=' + encodeURIComponent(query.value));
    const body = await r.json();
    results.textContent = ''; chosen = null; chat.setAttribute('aria-disabled', 'true');
    if (query.value && body.ranked_recipients.length === 0) { const none = document.createElement('span'); none.textContent = 'No account found.'; results.append(none); }
    for (const item of body.ranked_recipients) {
      const u = item.user;
      const row = document.createElement('div'); row.setAttribute('role', 'button'); row.tabIndex = 0; row.dataset.pk = u.pk;
      row.innerHTML = '<span></span> <span></span> <input type="checkbox" aria-label="Toggle selection">';
      row.children[0].textContent = u.full_name; row.children[1].textContent = u.username;
      row.addEventListener('click', () => {
        results.querySelectorAll('input').forEach(i => { i.checked = false; });
        row.querySelector('input').checked = true; chosen = u.pk; chat.setAttribute('aria-disabled', 'false');
      });
      results.append(row);
    }
  }, 150);
});
chat.addEventListener('click', async () => {
  if (!chosen) return;
  const r = await igFetch('/api/v1/direct_v2/create_group_thread/', { method: 'POST', form: { recipient_users: JSON.stringify([chosen]) } });
  const body = await r.json();
  if (r.ok) location.assign('/direct/t/' + body.thread_id + '/');
  else dialog('Error', body.message || 'Something went wrong.');
});
`
