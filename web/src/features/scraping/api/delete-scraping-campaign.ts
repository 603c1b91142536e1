import { callApi } from '@/lib/api-client'

/** DELETE {api}/scraping-campaigns/{id}: with its leads and lead list. */
export const deleteScrapingCampaign = (id: string) =>
  callApi('DELETE /scraping-campaigns/:id', { params: { id } })
