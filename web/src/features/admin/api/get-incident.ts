import { adminRequest } from './admin-request'

/** One incident with its redacted page outline (from the private storage bucket). */
export const getIncident = (id: string) => adminRequest('GET /incidents/:id', { params: { id } })
