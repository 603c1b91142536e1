import type { CampaignDetail } from '@reachflow/domain'
import { adminRequest } from './admin-request'

export const getCampaign = (id: string) => adminRequest<CampaignDetail>(`campaigns/${encodeURIComponent(id)}`)
