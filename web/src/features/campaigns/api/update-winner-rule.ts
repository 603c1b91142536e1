import { actionErrorText, callApi } from '@/lib/api-client'

/** PUT {api}/v2/campaigns/{id} with the "use the winner after N sends per variant" rule; null turns it off. */
export async function updateWinnerRule(campaignId: string, winnerAfterSends: number | null): Promise<void> {
  try {
    await callApi('PUT /v2/campaigns/:id', {
      params: { id: campaignId },
      body: { winner_after_sends: winnerAfterSends },
    })
  } catch (error) {
    throw new Error(actionErrorText('Could not save the winner rule', error))
  }
}
