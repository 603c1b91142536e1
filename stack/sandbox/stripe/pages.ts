// The sandbox's hosted pages: checkout (/c/pay/<session>), the billing portal (/p/session/<id>)
// and hosted invoices (/i/<invoice>). Server-rendered HTML with plain forms, so they work without
// JavaScript and every value is escaped.
import {
  describeInterval,
  formatAmount,
  type Invoice,
  type LineItem,
  type Session,
  type Subscription,
} from './objects.ts'

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

const date = (seconds: number) =>
  new Date(seconds * 1000).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  })

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1a1f36;background:#f6f9fc}
main{max-width:960px;margin:0 auto;padding:48px 24px;display:grid;gap:48px;grid-template-columns:1fr 1fr}
@media(max-width:760px){main{grid-template-columns:1fr;padding:24px 16px}}
.badge{display:inline-block;background:#ffde92;color:#6b4b00;border-radius:4px;padding:2px 8px;font-size:12px;font-weight:600;letter-spacing:.02em}
h1{font-size:16px;color:#697386;font-weight:500;margin:16px 0 4px}.amount{font-size:36px;font-weight:700;margin:0}
.muted{color:#697386}.lines{margin-top:24px;border-top:1px solid #e3e8ee}.line{display:flex;justify-content:space-between;padding:12px 0;border-bottom:1px solid #e3e8ee}
form,.panel{background:#fff;border-radius:8px;box-shadow:0 2px 5px rgba(60,66,87,.08),0 0 0 1px rgba(60,66,87,.08);padding:24px}
label{display:block;font-size:13px;color:#3c4257;margin:16px 0 6px;font-weight:500}
input{width:100%;padding:10px 12px;border:1px solid #cfd7df;border-radius:6px;font-size:15px}input:focus{outline:2px solid #635bff;border-color:#635bff}
.row{display:grid;grid-template-columns:1fr 1fr;gap:12px}
button{margin-top:24px;width:100%;padding:12px;border:0;border-radius:6px;background:#635bff;color:#fff;font-size:16px;font-weight:600;cursor:pointer}
button.secondary{background:#fff;color:#3c4257;border:1px solid #cfd7df;width:auto;padding:8px 14px;margin-top:8px;font-size:14px}
.error{background:#fff1f0;color:#c0123c;border:1px solid #ffccc7;border-radius:6px;padding:10px 12px;margin-top:16px}
.notice{background:#eef9f1;color:#0e6245;border:1px solid #b7ebc6;border-radius:6px;padding:10px 12px;margin-bottom:16px}
a{color:#635bff}.back{display:block;margin-bottom:24px;text-decoration:none}.test{font-size:12px;color:#697386;margin-top:12px}
table{width:100%;border-collapse:collapse}td,th{text-align:left;padding:8px 4px;border-bottom:1px solid #e3e8ee;font-size:14px}
.single{grid-template-columns:1fr;max-width:720px}`

function layout(title: string, body: string, single = false): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main${single ? ' class="single"' : ''}>${body}</main></body></html>`
}

export function messagePage(title: string, message: string, link?: { href: string; text: string }): string {
  const action = link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>` : ''
  return layout(
    title,
    `<section class="panel"><h2>${escapeHtml(title)}</h2><p class="muted">${escapeHtml(message)}</p>${action}</section>`,
    true,
  )
}

export interface CheckoutForm {
  email: string
  name: string
  card: string
  expiry: string
  cvc: string
}

export function checkoutPage(
  session: Session,
  items: LineItem[],
  form: Partial<CheckoutForm>,
  error?: string,
): string {
  const first = items[0]
  const trialDays = session.subscription_data?.trial_period_days ?? null
  const every = first ? describeInterval(first.price) : 'month'
  const total = formatAmount(session.amount_total, session.currency)
  const headline = trialDays
    ? `<span class="badge">${trialDays} days free</span><h1>Try ${escapeHtml(first?.description ?? 'your plan')}</h1><p class="amount">${trialDays} days free</p><p class="muted">Then ${escapeHtml(total)} per ${escapeHtml(every)} starting ${escapeHtml(date(session.created + trialDays * 86_400))}</p>`
    : `<h1>Subscribe to ${escapeHtml(first?.description ?? 'your plan')}</h1><p class="amount">${escapeHtml(total)}</p><p class="muted">per ${escapeHtml(every)}</p>`
  const lines = items
    .map(
      (item) =>
        `<div class="line"><span>${escapeHtml(item.description)}<br><span class="muted">Qty ${item.quantity} × ${escapeHtml(formatAmount(item.price.unit_amount, item.currency))} / ${escapeHtml(describeInterval(item.price))}</span></span><strong>${escapeHtml(formatAmount(item.amount_total, item.currency))}</strong></div>`,
    )
    .join('')
  const dueToday = trialDays ? formatAmount(0, session.currency) : total
  const fixedEmail = session.customer_email
  const emailField = fixedEmail
    ? `<input id="email" name="email" type="email" value="${escapeHtml(fixedEmail)}" readonly>`
    : `<input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(form.email ?? '')}">`
  const cancel = session.cancel_url
    ? `<a class="back" href="${escapeHtml(session.cancel_url)}" data-testid="checkout-cancel">← Cancel and go back</a>`
    : ''
  const summary = `<section>${cancel}${headline}<div class="lines">${lines}<div class="line"><span>Total due today</span><strong data-testid="due-today">${escapeHtml(dueToday)}</strong></div></div></section>`
  const payForm = `<form method="post" action="/c/pay/${escapeHtml(session.id)}" data-testid="checkout-form">
<label for="email">Email</label>${emailField}
<label for="card">Card information</label><input id="card" name="card" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" required value="${escapeHtml(form.card ?? '')}">
<div class="row"><div><label for="expiry">Expiry</label><input id="expiry" name="expiry" autocomplete="cc-exp" placeholder="MM / YY" required value="${escapeHtml(form.expiry ?? '')}"></div>
<div><label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123" required value="${escapeHtml(form.cvc ?? '')}"></div></div>
<label for="name">Name on card</label><input id="name" name="name" autocomplete="cc-name" value="${escapeHtml(form.name ?? '')}">
${error ? `<div class="error" role="alert" data-testid="checkout-error">${escapeHtml(error)}</div>` : ''}
<button type="submit">${trialDays ? 'Start trial' : 'Subscribe'}</button>
<p class="test">Stripe sandbox: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined; any future expiry and CVC.</p></form>`
  return layout('Checkout', summary + payForm)
}

export function portalPage(
  portalId: string,
  email: string | null,
  subscriptions: Array<{ subscription: Subscription; name: string }>,
  invoices: Invoice[],
  card: { brand: string; last4: string } | undefined,
  returnUrl: string | null,
  notice?: string,
  error?: string,
): string {
  const back = returnUrl
    ? `<a class="back" href="${escapeHtml(returnUrl)}" data-testid="portal-return">← Return to Reachflow</a>`
    : ''
  const subs = subscriptions
    .map(({ subscription: s, name }) => {
      const item = s.items.data[0]
      const amount = item ? formatAmount(item.price.unit_amount * item.quantity, item.price.currency) : ''
      const every = item ? describeInterval(item.price) : ''
      const end = item?.current_period_end ?? s.created
      const state =
        s.status === 'canceled'
          ? `Canceled ${date(s.ended_at ?? end)}`
          : s.cancel_at_period_end
            ? `Cancels ${date(s.cancel_at ?? end)}`
            : s.status === 'trialing'
              ? `Trial ends ${date(s.trial_end ?? end)}`
              : `Renews ${date(end)}`
      const action =
        s.status === 'canceled'
          ? ''
          : `<form method="post" action="/p/session/${escapeHtml(portalId)}/subscriptions/${escapeHtml(s.id)}" style="padding:0;box-shadow:none"><input type="hidden" name="cancel_at_period_end" value="${s.cancel_at_period_end ? 'false' : 'true'}"><button class="secondary" type="submit">${s.cancel_at_period_end ? 'Renew plan' : 'Cancel plan'}</button></form>`
      return `<div class="line" data-testid="portal-subscription"><span><strong>${escapeHtml(name)}</strong> · ${escapeHtml(s.status)}<br><span class="muted">${escapeHtml(amount)} per ${escapeHtml(every)} · ${escapeHtml(state)}</span></span>${action}</div>`
    })
    .join('')
  const rows = invoices
    .map(
      (i) =>
        `<tr><td>${escapeHtml(date(i.created))}</td><td>${escapeHtml(formatAmount(i.total, i.currency))}</td><td>${escapeHtml(i.status)}</td><td><a href="${escapeHtml(i.hosted_invoice_url ?? '')}">View</a></td></tr>`,
    )
    .join('')
  const body = `<section class="panel">${back}
${notice ? `<div class="notice" role="status">${escapeHtml(notice)}</div>` : ''}
<h2>Billing</h2><p class="muted">${escapeHtml(email ?? '')}</p>
<h3>Current plan</h3>${subs || '<p class="muted">No subscriptions.</p>'}
<h3>Payment method</h3><p>${card ? `${escapeHtml(card.brand.toUpperCase())} •••• ${escapeHtml(card.last4)}` : 'None'}</p>
<form method="post" action="/p/session/${escapeHtml(portalId)}/card" style="padding:0;box-shadow:none">
<div class="row"><div><label for="card">New card</label><input id="card" name="card" required placeholder="4242 4242 4242 4242"></div>
<div class="row"><div><label for="expiry">Expiry</label><input id="expiry" name="expiry" required placeholder="MM / YY"></div><div><label for="cvc">CVC</label><input id="cvc" name="cvc" required placeholder="123"></div></div></div>
${error ? `<div class="error" role="alert">${escapeHtml(error)}</div>` : ''}
<button class="secondary" type="submit">Update payment method</button></form>
<h3>Invoice history</h3><table><thead><tr><th>Date</th><th>Amount</th><th>Status</th><th></th></tr></thead><tbody>${rows || '<tr><td colspan="4" class="muted">No invoices yet.</td></tr>'}</tbody></table></section>`
  return layout('Billing portal', body, true)
}

export function invoicePage(invoice: Invoice): string {
  const lines = invoice.lines.data
    .map(
      (l) =>
        `<tr><td>${escapeHtml(l.description)}</td><td>${l.quantity}</td><td>${escapeHtml(formatAmount(l.amount, l.currency))}</td></tr>`,
    )
    .join('')
  const body = `<section class="panel"><h2>Invoice ${escapeHtml(invoice.number ?? '')}</h2>
<p class="muted">${escapeHtml(invoice.customer_email ?? '')} · ${escapeHtml(date(invoice.created))} · <strong>${escapeHtml(invoice.status)}</strong></p>
<table><thead><tr><th>Description</th><th>Qty</th><th>Amount</th></tr></thead><tbody>${lines}</tbody></table>
<p class="amount" style="font-size:24px;margin-top:16px">${escapeHtml(formatAmount(invoice.total, invoice.currency))}</p>
<p><a href="${escapeHtml(invoice.invoice_pdf ?? '')}">Download PDF</a></p></section>`
  return layout(`Invoice ${invoice.number ?? ''}`, body, true)
}
