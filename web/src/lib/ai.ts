// AI writing: whether the server has an AI endpoint and how much of today's budget the
// customer has left (GET {api}/ai/status), drafts for the DM wizard (POST {api}/ai/draft-messages), and
// the wizard's personalised preview for a real lead (POST {api}/ai/preview-message).
// The endpoint's key never reaches the browser; only drafted text does.
import type { DraftRequest, Drafts, MessagePreviewRequest, PersonalizedPreview } from '@reachflow/domain'
import { useQuery } from '@tanstack/react-query'
import { callApi } from './api-client'

export type { AiAvailable, AiBudget, AiStatus, DraftRequest, Drafts } from '@reachflow/domain'

export const aiStatusKey = ['ai', 'status'] as const

export function useAiStatus() {
  return useQuery({
    queryKey: aiStatusKey,
    queryFn: () => callApi('GET /ai/status'),
    staleTime: 30_000,
  })
}

export function draftMessages(body: DraftRequest): Promise<Drafts> {
  return callApi('POST /ai/draft-messages', { body })
}

export function previewPersonalizedMessage(body: MessagePreviewRequest): Promise<PersonalizedPreview> {
  return callApi('POST /ai/preview-message', { body })
}
