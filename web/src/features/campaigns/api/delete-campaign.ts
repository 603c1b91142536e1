import { callApi } from '@/lib/api-client'

/** DELETE {api}/v2/campaigns/{id}. */
export const deleteCampaign = (id: string) => callApi('DELETE /v2/campaigns/:id', { params: { id } })
