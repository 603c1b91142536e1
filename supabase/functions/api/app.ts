// The api function's routes (product.md §7 "Product backend", `{api}` = /functions/v1/api). Every route
// authenticates the caller from the JWT and touches only the caller's rows.
import { handleRequest } from '../_shared/errors.ts'
import { Router } from '../_shared/router.ts'
import { EDIT_ROLES, requireWorkspaceRole } from '../_shared/workspace-role.ts'
import { aiStatus, draftMessages, previewMessage } from './ai.ts'
import { billingPortal, cancelSubscription, invoiceLink, resumeSubscription } from './billing.ts'
import { createCheckoutSession, getCheckoutSession } from './checkout.ts'
import { getCredits } from './credits.ts'
import { type ApiDeps, authed, type CallerHandler, defaultDeps } from './deps.ts'
import {
  createCampaign,
  deleteCampaign,
  getCampaign,
  launchCampaign,
  listCampaigns,
  pauseCampaign,
  updateCampaign,
} from './dm-campaigns.ts'
import { createLeadList, deleteLeadList, getLeadList, listLeadLists } from './lead-lists.ts'
import { changePlan, previewPlanChange } from './plan-change.ts'
import {
  createScrapingCampaign,
  deleteScrapingCampaign,
  getScrapingCampaign,
  listScrapingCampaigns,
  pauseScrapingCampaign,
  startScrapingCampaign,
} from './scraping-campaigns.ts'
import {
  createAccount,
  deleteAccount,
  listAccounts,
  listPlatforms,
  testAccount,
  updateAccount,
  validateCookies,
} from './social-accounts.ts'
import { inviteMember, resendInvitation } from './workspace-invitations.ts'
import { finishXOfficial, startXOfficial, xOfficialSetup } from './x-official.ts'

/**
 * A route that changes the workspace's accounts, scraping, lead lists or campaigns, or spends its AI
 * credits: owners, admins and editors only (the role matrix), refused before anything is read or written.
 */
const editing =
  (handler: CallerHandler): CallerHandler =>
  async (req, ctx) => {
    await requireWorkspaceRole(ctx.caller.db, EDIT_ROLES)
    return handler(req, ctx)
  }

/** Billing: the owner only, and a member hears so before a body is checked or Stripe is asked. */
const owning =
  (handler: CallerHandler): CallerHandler =>
  async (req, ctx) => {
    await requireWorkspaceRole(ctx.caller.db, ['owner'])
    return handler(req, ctx)
  }

export function createApiRouter(deps: ApiDeps): Router {
  const router = new Router('api')
  const get = (path: string, handler: CallerHandler) => router.get(path, authed(deps, handler))
  const post = (path: string, handler: CallerHandler) => router.post(path, authed(deps, handler))
  const put = (path: string, handler: CallerHandler) => router.put(path, authed(deps, handler))
  const del = (path: string, handler: CallerHandler) => router.delete(path, authed(deps, handler))
  const patch = (path: string, handler: CallerHandler) => router.patch(path, authed(deps, handler))

  get('/social-accounts', listAccounts)
  get('/social-accounts/platforms', listPlatforms)
  post('/social-accounts', editing(createAccount))
  post('/social-accounts/validate-cookies', editing(validateCookies))
  // official X accounts: the customer's developer app, OAuth 2.0 with PKCE (x-official.ts)
  get('/social-accounts/x-official/setup', xOfficialSetup)
  post('/social-accounts/x-official/start', editing(startXOfficial))
  post('/social-accounts/x-official/callback', editing(finishXOfficial))
  post('/social-accounts/:id/test', editing(testAccount))
  patch('/social-accounts/:id', editing(updateAccount))
  del('/social-accounts/:id', editing(deleteAccount))

  // product.md §7 names scraping campaigns under two paths; both reach the same handlers.
  for (const base of ['/lead-scraping/campaigns', '/scraping-campaigns']) {
    get(base, listScrapingCampaigns)
    post(base, editing(createScrapingCampaign))
    get(`${base}/:id`, getScrapingCampaign)
    post(`${base}/:id/start`, editing(startScrapingCampaign))
    post(`${base}/:id/pause`, editing(pauseScrapingCampaign))
    del(`${base}/:id`, editing(deleteScrapingCampaign))
  }

  get('/v2/campaigns', listCampaigns)
  post('/v2/campaigns', editing(createCampaign))
  get('/v2/campaigns/:id', getCampaign)
  put('/v2/campaigns/:id', editing(updateCampaign))
  del('/v2/campaigns/:id', editing(deleteCampaign))
  post('/v2/campaigns/:id/launch', editing(launchCampaign))
  post('/v2/campaigns/:id/pause', editing(pauseCampaign))

  get('/lead-lists', listLeadLists)
  get('/lead-lists/:id', getLeadList)
  post('/lead-lists', editing(createLeadList))
  del('/lead-lists/:id', editing(deleteLeadList))

  get('/user/credits', getCredits)

  get('/ai/status', aiStatus)
  post('/ai/draft-messages', editing(draftMessages))
  post('/ai/preview-message', editing(previewMessage))

  post('/api/create-checkout-session', owning(createCheckoutSession))
  get('/api/checkout-session/:id', getCheckoutSession)
  // The billing page: the web app calls /api/subscription/* and /invoices/*; /billing/* names the same.
  for (const base of ['/billing', '/api/subscription']) {
    post(`${base}/cancel`, owning(cancelSubscription))
    post(`${base}/resume`, owning(resumeSubscription))
  }
  post('/billing/change-preview', owning(previewPlanChange))
  post('/billing/change-plan', owning(changePlan))
  post('/billing/portal', owning(billingPortal))
  get('/invoices/:id', owning(invoiceLink))
  // Earlier clients asked for /api/invoices/:id (a doubled /functions/v1/api/api/… path).
  get('/api/invoices/:id', owning(invoiceLink))
  get('/billing/invoices/:id', owning(invoiceLink))

  // Invitations are written by the database's RPCs; these routes add the e-mail (workspace-invitations.ts).
  post('/workspaces/:id/invitations', inviteMember)
  post('/workspaces/:id/invitations/:invitationId/resend', resendInvitation)
  return router
}

/** The whole function as Deno.serve runs it: CORS, routing, JSON errors. */
export function createApiHandler(deps: ApiDeps = defaultDeps()): (req: Request) => Promise<Response> {
  return handleRequest(createApiRouter(deps).handle)
}
