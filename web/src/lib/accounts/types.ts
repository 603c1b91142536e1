/** Spec §3 "Platform", as GET {api}/social-accounts/platforms lists it. */
export interface Platform {
  id: string
  name: string
  display_name: string
  is_active: boolean
  coming_soon: boolean
}

/** Spec §3 "Account limit check result". */
export interface AccountLimit {
  canAddAccount: boolean
  currentCount: number
  limit: number
  planType: string
  error?: string
}
