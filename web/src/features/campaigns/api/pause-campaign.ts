import { callApi } from '@/lib/api-client'

/** POST {api}/v2/campaigns/{id}/pause: waiting sends are cancelled. */
export const pauseCampaign = (id: string) => callApi('POST /v2/campaigns/:id/pause', { params: { id } })
