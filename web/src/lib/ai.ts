// AI writing: whether the server has an AI endpoint and how much of today's budget the
// customer has left (GET {api}/ai/status), and drafts for the DM wizard (POST {api}/ai/draft-messages).
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
