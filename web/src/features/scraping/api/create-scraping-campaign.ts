import { actionErrorText, callApi } from '@/lib/api-client'
import type { scrapingRequest } from '../scraping-form'

/** POST {api}/lead-scraping/campaigns (created pending); throws 'Failed to create campaign: …' (product.md §8). */
export async function createScrapingCampaign(
  body: ReturnType<typeof scrapingRequest>,
): Promise<{ id: string }> {
  try {
    return await callApi('POST /lead-scraping/campaigns', { body })
  } catch (error) {
    throw new Error(actionErrorText('Failed to create campaign', error))
  }
}
