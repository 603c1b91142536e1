// @reachflow/domain: the rules, API shapes and checks that more than one part of Reachflow runs (web,
// the edge functions, the runner), in one place and imported by that one name everywhere
// (docs/architecture.md, "The domain package"). Dependency-free: these files import only each other
// and use Web-standard globals, so Deno, Node and the browser run them unchanged.
export * from './admin.ts'
export * from './admin-endpoints.ts'
export * from './admin-platform.ts'
export * from './ai-text.ts'
export * from './api-endpoints.ts'
export * from './connect-binding.ts'
export * from './csv.ts'
export * from './dm-campaign.ts'
export * from './endpoints.ts'
export * from './host.ts'
export * from './opt-out.ts'
export * from './pack-safety.ts'
export * from './platform-pack.ts'
export * from './pricing.ts'
export * from './proxy.ts'
export * from './spintax.ts'
export * from './variant-stats.ts'
export * from './x-api.ts'
export * from './x-api-cost.ts'
export * from './x-cookies.ts'
