import { callApi } from '@/lib/api-client'

/** DELETE {api}/v2/campaigns/{id}. */
export const deleteCampaign = (id: string) =>
  callApi<{ message?: string }>(`v2/campaigns/${id}`, { method: 'DELETE' })
