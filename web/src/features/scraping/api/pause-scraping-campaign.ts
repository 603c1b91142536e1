import { callApi } from '@/lib/api-client'

/** POST {api}/scraping-campaigns/{id}/pause. */
export const pauseScrapingCampaign = (id: string) =>
  callApi<{ message?: string }>(`scraping-campaigns/${id}/pause`, { method: 'POST' })
