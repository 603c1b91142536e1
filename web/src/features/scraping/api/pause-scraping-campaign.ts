import { callApi } from '@/lib/api-client'

/** POST {api}/scraping-campaigns/{id}/pause. */
export const pauseScrapingCampaign = (id: string) =>
  callApi('POST /scraping-campaigns/:id/pause', { params: { id } })
