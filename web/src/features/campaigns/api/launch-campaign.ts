import { callApi } from '@/lib/api-client'

/** POST {api}/v2/campaigns/{id}/launch: a draft or paused campaign starts sending. */
export const launchCampaign = (id: string) => callApi('POST /v2/campaigns/:id/launch', { params: { id } })
