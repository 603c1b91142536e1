import { adminRequest } from './admin-request'

export const getCampaign = (id: string) => adminRequest('GET /campaigns/:id', { params: { id } })
