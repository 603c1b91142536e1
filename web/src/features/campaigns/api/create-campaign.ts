import type { CreateDmCampaignBody } from '@reachflow/domain'
import { actionErrorText, callApi } from '@/lib/api-client'

/** POST {api}/v2/campaigns; throws with product.md §8 'Failed to create campaign: …' texts. */
export async function createCampaign(body: CreateDmCampaignBody): Promise<{ id: string; status: string }> {
  try {
    return await callApi('POST /v2/campaigns', { body })
  } catch (error) {
    throw new Error(actionErrorText('Failed to create campaign', error))
  }
}
