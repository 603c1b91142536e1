// @reachflow/schemas: the zod schemas that web and the functions both check input with, built once.
// Unlike @reachflow/domain it has one dependency, zod (docs/decisions.md).
export * from './campaign.ts'
