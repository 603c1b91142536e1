import { callApi } from '@/lib/api-client'

/** DELETE {api}/scraping-campaigns/{id}: with its leads and lead list. */
export const deleteScrapingCampaign = (id: string) =>
  callApi<{ message?: string }>(`scraping-campaigns/${id}`, { method: 'DELETE' })
