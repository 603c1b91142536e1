// `npm run lint` runs this: every import in the repository against the import boundaries
// (scripts/import-boundaries/rules.ts, docs/architecture.md). Biome's noRestrictedImports matches
// the text of a specifier, not the file it resolves to, so it cannot tell `../../campaigns/x` from
// `../x` or one feature from another (docs/decisions.md). Ends with "imports: ok" or one line per
// broken rule naming the file, the import and the rule (exit 1).
import { fileURLToPath } from 'node:url'
import {
  brokenPackageImport,
  brokenProgramImport,
  brokenRule,
  hasRules,
  isDomainTypeImport,
  zoneOf,
} from './import-boundaries/rules.ts'
import { scanImports, sourceFiles } from './import-boundaries/scan.ts'

/** One line per import that breaks a rule or file that could not be read; empty when all is well. */
export function checkImports(root: string): string[] {
  // Only files that can break a rule are parsed (about two thirds of them): tests and tools go free.
  const { imports, packages, unreadable } = scanImports(
    root,
    sourceFiles(root).filter((file) => hasRules(zoneOf(file))),
  )
  const problems = unreadable.map(({ file, message }) => `${file}: could not be parsed (${message})`)
  for (const { file, line, specifier, target, typeOnly } of imports) {
    if (isDomainTypeImport(file, target, typeOnly)) continue
    const rule =
      brokenRule(zoneOf(file), zoneOf(target)) ??
      brokenPackageImport(file, specifier, target) ??
      brokenProgramImport(file, specifier, target)
    if (rule) problems.push(`${file}:${line} imports '${specifier}' (${target}): ${rule}`)
  }
  for (const { file, line, specifier } of packages) {
    const rule = brokenPackageImport(file, specifier, null)
    if (rule) problems.push(`${file}:${line} imports '${specifier}': ${rule}`)
  }
  return problems
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now()
  const problems = checkImports(fileURLToPath(new URL('..', import.meta.url)))
  for (const problem of problems) console.error(problem)
  const ms = Math.round(performance.now() - started)
  if (problems.length > 0) {
    console.error(
      `imports: ${problems.length} broken boundar${problems.length === 1 ? 'y' : 'ies'} (${ms} ms)`,
    )
    process.exit(1)
  }
  console.log(`imports: ok (${ms} ms)`)
}
