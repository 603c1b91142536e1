import type { Campaign } from './api/types'
import { type CampaignFilter, campaignFilterOf } from './campaign-status'

export interface CampaignFilters {
  bucket: CampaignFilter | 'all'
  search: string
  /** The Filter button: sender account id. */
  accountId: string
  /** The Status button: an exact stored status. */
  status: string
  /** The Industry button. */
  industry: string
}

export const NO_FILTERS: CampaignFilters = {
  bucket: 'all',
  search: '',
  accountId: '',
  status: '',
  industry: '',
}

/** product.md §2 sub-filters and search, plus the Filter, Status and Industry buttons made to work. */
export function filterCampaigns(campaigns: readonly Campaign[], f: CampaignFilters): Campaign[] {
  const needle = f.search.trim().toLowerCase()
  return campaigns.filter(
    (c) =>
      (f.bucket === 'all' || campaignFilterOf(c.status) === f.bucket) &&
      (!needle || c.name.toLowerCase().includes(needle)) &&
      (!f.accountId || c.account_id === f.accountId) &&
      (!f.status || c.status === f.status) &&
      (!f.industry || (c.industry ?? '') === f.industry),
  )
}

/** Distinct values for a filter menu, sorted. */
export function distinct(values: readonly (string | null | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => Boolean(v)))].sort((a, b) => a.localeCompare(b))
}
