import { adminRequest } from './admin-request'

export interface LogFilters {
  level: string
  service: string
}

/** product.md §7: GET /admin/logs?level=&service=&limit=100 ('all' sends an empty filter). */
export const getLogs = ({ level, service }: LogFilters, limit = 100) =>
  adminRequest('GET /logs', {
    query: { level: level === 'all' ? '' : level, service: service === 'all' ? '' : service, limit },
  })
