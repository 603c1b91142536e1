// Route paths of product.md §2 (plus the password-recovery pages), in one place for links and redirects.
export const paths = {
  home: '/',
  landing: '/landing',
  fbOffer: '/fb-offer',
  googleAds: '/google-ads',
  login: '/login',
  resetPassword: '/reset-password',
  updatePassword: '/update-password',
  dashboard: '/dashboard',
  admin: '/admin',
  settings: '/settings',
  doNotContact: '/settings/do-not-contact',
  /** The workspace's activity log (owners and admins). */
  activity: '/activity',
  billing: '/billing',
  /** The active workspace's members and invitations (owners and admins). */
  members: '/settings/members',
  /** Rename, delete, hand over or leave the active workspace. */
  workspaceSettings: '/settings/workspace',
  /** The link an invitation e-mail carries: /invite/<token>. */
  invite: '/invite/:token',
  /** The billing page with its change-plan control open: where every "limit reached" message leads. */
  changePlan: '/billing?change=plan',
  success: '/success',
  cancel: '/cancel',
  /** X sends the customer back here after connecting an account through the X API. */
  connectXCallback: '/connect/x/callback',
  connectInstagramCallback: '/connect/instagram/callback',
  /** Meta links a person here (with ?code=) after they asked Instagram to delete Reachflow's data about them. */
  dataDeletion: '/data-deletion',
} as const
