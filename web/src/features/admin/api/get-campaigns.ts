import type { AdminCampaign } from '@reachflow/domain'
import { adminRequest } from './admin-request'

export const getCampaigns = () => adminRequest<AdminCampaign[]>('campaigns')
