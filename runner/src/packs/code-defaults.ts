// The facts each adapter ships with, as the JSON pack operators see, validate against and override
// (packs/registry.ts). Each adapter keeps its facts as one plain-JSON object with a version (regexes
// as {source, flags}, paths as {placeholder} templates), so that object is the default as it is:
// a published pack has exactly its shape and the adapter reads it the same way.
import { INSTAGRAM_FACTS } from '../platforms/instagram/facts.ts'
import type { AccountPlatform } from '../platforms/names.ts'
import { X_FACTS } from '../platforms/x/facts.ts'

export type PackFacts = { version: string } & Record<string, unknown>

/** Each platform's facts as the adapters in this build carry them. */
export const CODE_DEFAULT_FACTS: Record<AccountPlatform, PackFacts> = {
  twitter: X_FACTS,
  instagram: INSTAGRAM_FACTS,
}
