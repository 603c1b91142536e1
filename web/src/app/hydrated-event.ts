/**
 * Dispatched on window once React has hydrated a prerendered page and handles its events: the
 * build's inline loader (build/prerender-plugin.ts) then replays the clicks it held meanwhile.
 */
export const HYDRATED_EVENT = 'reachflow:hydrated'
