// Packs as an operator would publish them: the code default with one fact changed, so a test can
// show that what a session opens with is the pack's facts and what a changed fact does to a step.
import { CODE_DEFAULT_FACTS, type PackFacts } from '../../src/packs/code-defaults.ts'
import type { PackInUse } from '../../src/packs/registry.ts'
import type { InstagramFacts } from '../../src/platforms/instagram/facts.ts'
import type { XFacts } from '../../src/platforms/x/facts.ts'

/** The platform's code default with `edit` applied to a copy, as a published pack of its own version. */
export function editedPack(platform: 'twitter', version: string, edit: (facts: XFacts) => void): PackInUse
export function editedPack(
  platform: 'instagram',
  version: string,
  edit: (facts: InstagramFacts) => void,
): PackInUse
export function editedPack(
  platform: 'twitter' | 'instagram',
  version: string,
  edit: (facts: XFacts & InstagramFacts) => void,
): PackInUse {
  const facts = structuredClone(CODE_DEFAULT_FACTS[platform]) as PackFacts & XFacts & InstagramFacts
  facts.version = version
  edit(facts)
  return { platform, version, facts, source: 'published', packId: null }
}
