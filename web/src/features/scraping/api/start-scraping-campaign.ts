import { callApi } from '@/lib/api-client'

/** POST {api}/scraping-campaigns/{id}/start: pending or paused → running ('started manually from the list'). */
export const startScrapingCampaign = (id: string) =>
  callApi('POST /scraping-campaigns/:id/start', { params: { id } })
