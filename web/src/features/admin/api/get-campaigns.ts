import { adminRequest } from './admin-request'

export const getCampaigns = () => adminRequest('GET /campaigns')
