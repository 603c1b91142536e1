import { adminRequest } from './admin-request'
import type { CampaignDetail } from './types'

export const getCampaign = (id: string) => adminRequest<CampaignDetail>(`campaigns/${encodeURIComponent(id)}`)
