// AI writing: whether the server has an AI endpoint and how much of today's budget the
// customer has left (GET {api}/ai/status), drafts for the DM wizard (POST {api}/ai/draft-messages), and
// the wizard's personalised preview for a real lead (POST {api}/ai/preview-message).
// The endpoint's key never reaches the browser; only drafted text does.
import { useQuery } from '@tanstack/react-query'
import { callApi } from './api-client'

export interface AiBudget {
  requests: number
  requestLimit: number
  tokens: number
  tokenLimit: number
  exhausted: boolean
  resetsAt: string
}

export interface AiStatus {
  available: boolean
  /** One line for the customer when the features are hidden or the budget is used up. */
  reason: string | null
  model?: string
  /** The local stack's deterministic sandbox answers, not a real model. */
  sandbox?: boolean
  budget?: AiBudget
}

export const aiStatusKey = ['ai', 'status'] as const

export function useAiStatus() {
  return useQuery({
    queryKey: aiStatusKey,
    queryFn: () => callApi<AiStatus>('ai/status'),
    staleTime: 30_000,
  })
}

export interface DraftRequest {
  goal: string
  offer: string
  platform: 'twitter' | 'instagram'
  variants: number
  followUps: number
}

export interface Drafts {
  messages: string[]
  followUps: string[]
}

export function draftMessages(body: DraftRequest): Promise<Drafts> {
  return callApi<Drafts>('ai/draft-messages', { method: 'POST', body })
}

export interface MessagePreviewRequest {
  template: string
  scraping_campaign_id: string
  platform: 'twitter' | 'instagram'
}

/** What a real lead of the source would be sent, personalised as the runner personalises it. */
export interface PersonalizedPreview {
  username: string
  text: string
  personalization: 'personalized' | 'fallback'
  /** Why the AI's text was not used (the template is sent instead). */
  note: string | null
}

export function previewPersonalizedMessage(body: MessagePreviewRequest): Promise<PersonalizedPreview> {
  return callApi<PersonalizedPreview>('ai/preview-message', { method: 'POST', body })
}
