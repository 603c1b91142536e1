import { adminRequest } from './admin-request'
import type { AdminCampaign } from './types'

export const getCampaigns = () => adminRequest<AdminCampaign[]>('campaigns')
