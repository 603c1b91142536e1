import { adminRequest } from './admin-request'

/** GET admin/ai-usage: each customer's AI use today (UTC), heaviest first. */
export interface AiUsage {
  day: string
  requestLimit: number
  tokenLimit: number
  customers: {
    userId: string
    email: string
    requests: number
    tokens: number
    denied: number
    failures: number
    exhausted: boolean
  }[]
}

export const getAiUsage = () => adminRequest<AiUsage>('ai-usage')
