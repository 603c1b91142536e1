// Renders the schema files: everything the migrations' database has beyond the baseline (the
// platform layer plus the files' kept preambles), each object in its domain's file, in the order the
// style guide gives: types, tables, indexes, triggers, helper functions, views, policies, grants, RPCs.
import { aclStatements, columnGrants, SEQUENCE_PRIVILEGES, TABLE_PRIVILEGES } from './acl.ts'
import type { Catalog, Constraint, Func, Relation } from './catalog.ts'
import { facts } from './compare.ts'
import {
  DOMAINS,
  domainForAttachment,
  domainForFunction,
  domainForRelation,
  FALLBACK_FILE,
} from './domains.ts'
import type { FileSections, Section } from './file-text.ts'
import {
  addConstraint,
  commentOn,
  createFunction,
  createIndex,
  createPolicy,
  createSequence,
  createTable,
  createTrigger,
  createType,
  createView,
  rowLevelSecurity,
} from './render-objects.ts'
import { type Quote, qualified } from './sql-text.ts'

/** Where objects already are: "relation s.n", "function s.n", "trigger s.t.n", "policy s.t.n" → file. */
export type Placement = Map<string, string>

export function renderSchemaFiles(wanted: Catalog, baseline: Catalog, quote: Quote, placement: Placement) {
  const files = new Map<string, FileSections>()
  let unique = 0
  const emit = (file: string, section: Section, text: string, group = `#${unique++}`) => {
    const sections = files.get(file) ?? (new Map() as FileSections)
    files.set(file, sections)
    sections.set(section, [...(sections.get(section) ?? []), { text, group }])
  }
  const baseFacts = facts(baseline)
  const wantedFacts = facts(wanted)
  const unchanged = (key: string) =>
    JSON.stringify(baseFacts.get(key)) === JSON.stringify(wantedFacts.get(key))
  const inBaseline = (key: string) => baseFacts.has(key)
  const relKey = (r: { schema: string; name: string }) => `${r.schema}.${r.name}`

  const relationFile = new Map<string, string>()
  for (const r of wanted.relations)
    relationFile.set(
      relKey(r),
      placement.get(`relation ${relKey(r)}`) ?? domainForRelation(relKey(r)) ?? FALLBACK_FILE,
    )
  const tableFile = (schema: string, table: string) => relationFile.get(`${schema}.${table}`) ?? FALLBACK_FILE

  // Functions: kept where they are; else by name; a trigger function beside its first table;
  // otherwise beside the table its body names first.
  const triggersByFunction = new Map<string, string[]>()
  for (const t of wanted.triggers)
    triggersByFunction.set(t.function, [
      ...(triggersByFunction.get(t.function) ?? []),
      tableFile(t.schema, t.table),
    ])
  /** The table or view the body names first (by position in the text). */
  const bodyTable = (f: Func) => {
    let first: { at: number; relation: Relation } | undefined
    for (const relation of wanted.relations) {
      if (relation.schema === 'pgboss') continue
      const match = new RegExp(`\\b${relation.schema}\\.${relation.name}\\b`).exec(f.definition)
      if (match && (!first || match.index < first.at)) first = { at: match.index, relation }
    }
    return first?.relation
  }
  const functionFile = (f: Func) => {
    const name = `${f.schema}.${f.name}`
    const byTrigger = triggersByFunction.get(f.signature)?.sort()[0]
    const byBody = bodyTable(f)
    return (
      placement.get(`function ${name}`) ??
      domainForFunction(name) ??
      byTrigger ??
      (byBody ? tableFile(byBody.schema, byBody.name) : FALLBACK_FILE)
    )
  }

  const problems: string[] = []
  const owner = (what: string, role: string) => {
    if (role !== 'postgres') problems.push(`${what} belongs to ${role}, not postgres: add its owner by hand`)
  }

  // Schemas, types, sequences --------------------------------------------------------------------
  for (const s of wanted.schemas) {
    const key = `schema ${s.name}`
    if (unchanged(key)) continue
    const file = s.name === 'pgboss' ? '05_pgboss.sql' : FALLBACK_FILE
    const old = baseline.schemas.find((b) => b.name === s.name)
    if (!old) {
      owner(key, s.owner)
      emit(file, 'Schemas and types', `create schema ${quote(s.name)};`)
    }
    for (const c of commentOn(`schema ${quote(s.name)}`, s.comment))
      if (old?.comment !== s.comment) emit(file, 'Schemas and types', c)
    const grants = aclStatements(
      quote,
      `on schema ${quote(s.name)}`,
      old ? old.acl : s.creationAcl,
      s.acl,
      ['USAGE', 'CREATE'],
      s.owner,
    )
    for (const g of grants) emit(file, 'Grants', g, key)
  }
  for (const e of wanted.extensions)
    if (!inBaseline(`extension ${e.name}`))
      emit(
        FALLBACK_FILE,
        'Schemas and types',
        `create extension if not exists ${quote(e.name)} with schema ${quote(e.schema)};`,
      )
  for (const t of wanted.types) {
    const key = `type ${t.schema}.${t.name}`
    const file =
      relationFile.get(`${t.schema}.${t.name}`) ?? domainForRelation(`${t.schema}.${t.name}`) ?? FALLBACK_FILE
    if (unchanged(key)) continue
    if (inBaseline(key)) problems.push(`${key} differs from its preamble: change it there`)
    else {
      owner(key, t.owner)
      emit(file, 'Schemas and types', createType(quote, t))
      for (const g of aclStatements(
        quote,
        `on type ${qualified(quote, t.schema, t.name)}`,
        t.creationAcl,
        t.acl,
        ['USAGE'],
        t.owner,
      ))
        emit(file, 'Grants', g, key)
    }
  }

  // Tables, sequences, views ---------------------------------------------------------------------
  const constraintsOf = new Map<string, Constraint[]>()
  for (const c of wanted.constraints)
    if (!c.inherited)
      constraintsOf.set(`${c.schema}.${c.table}`, [...(constraintsOf.get(`${c.schema}.${c.table}`) ?? []), c])
  const created = new Set<string>(baseline.relations.map(relKey))
  const deferredForeignKeys = new Map<string, Constraint[]>()
  const kindName: Record<string, string> = {
    r: 'table',
    p: 'table',
    v: 'view',
    m: 'materialized view',
    S: 'sequence',
  }
  const rendered: Relation[] = []
  const fileOrder = DOMAINS.map((d) => d.file)
  const relationsInFileOrder = [...wanted.relations].sort(
    (a, b) =>
      fileOrder.indexOf(tableFile(a.schema, a.name)) - fileOrder.indexOf(tableFile(b.schema, b.name)) ||
      a.oid - b.oid,
  )
  for (const r of relationsInFileOrder) {
    const name = relKey(r)
    const key = `${kindName[r.kind] ?? r.kind} ${name}`
    const file = tableFile(r.schema, r.name)
    if (inBaseline(key)) {
      const old = baseline.relations.find((b) => relKey(b) === name) as Relation
      const before = { ...baseFacts.get(key), privileges: '', comment: '' }
      const after = { ...wantedFacts.get(key), privileges: '', comment: '' }
      const columnsChanged = r.columns.some(
        (c) => JSON.stringify(c) !== JSON.stringify(old.columns.find((o) => o.name === c.name)),
      )
      if (JSON.stringify(before) !== JSON.stringify(after) || columnsChanged)
        problems.push(
          `${key} differs from the platform layer or its preamble beyond grants and comments: render it by hand`,
        )
      if (old.comment !== r.comment)
        for (const c of commentOn(`table ${qualified(quote, r.schema, r.name)}`, r.comment))
          emit(file, 'Tables', c)
      const all = r.kind === 'S' ? SEQUENCE_PRIVILEGES : TABLE_PRIVILEGES
      const target = `on ${r.kind === 'S' ? 'sequence ' : ''}${qualified(quote, r.schema, r.name)}`
      for (const g of aclStatements(quote, target, old.acl, r.acl, all, r.owner)) emit(file, 'Grants', g, key)
      if (old.rls !== r.rls || old.forceRls !== r.forceRls)
        for (const line of rowLevelSecurity(quote, r)) emit(file, 'Row-level security', line, `rls ${name}`)
      continue
    }
    owner(key, r.owner)
    rendered.push(r)
    if (r.kind === 'S') {
      if (r.sequenceOwnedBy?.endsWith('(identity)')) {
        const all = SEQUENCE_PRIVILEGES
        for (const g of aclStatements(
          quote,
          `on sequence ${qualified(quote, r.schema, r.name)}`,
          r.creationAcl,
          r.acl,
          all,
          r.owner,
        ))
          emit(file, 'Grants', g, key)
        continue
      }
      emit(file, 'Schemas and types', createSequence(quote, r))
    } else if (r.kind === 'v' || r.kind === 'm') {
      emit(file, 'Views', createView(quote, r), `view ${name}`)
    } else {
      const own = (constraintsOf.get(name) ?? []).filter((c) => {
        if (c.type !== 'f' || !c.references) return true
        const target = c.references.includes('.')
          ? c.references.replaceAll('"', '')
          : `public.${c.references}`
        if (target === name || created.has(target)) return true
        deferredForeignKeys.set(target, [...(deferredForeignKeys.get(target) ?? []), c])
        return false
      })
      emit(file, 'Tables', createTable(quote, r, own))
    }
    created.add(name)
    for (const c of deferredForeignKeys.get(name) ?? []) emit(file, 'Tables', addConstraint(quote, c))
    deferredForeignKeys.delete(name)
    const target = qualified(quote, r.schema, r.name)
    const all = r.kind === 'S' ? SEQUENCE_PRIVILEGES : TABLE_PRIVILEGES
    for (const g of aclStatements(
      quote,
      `on ${r.kind === 'S' ? 'sequence ' : ''}${target}`,
      r.creationAcl,
      r.acl,
      all,
      r.owner,
    ))
      emit(file, 'Grants', g, key)
    for (const g of columnGrants(quote, target, r.columns)) emit(file, 'Grants', g, key)
    for (const line of rowLevelSecurity(quote, r)) emit(file, 'Row-level security', line, `rls ${name}`)
  }
  // Constraints added to tables of the baseline (none expected) and ones a preamble lacks.
  for (const c of wanted.constraints) {
    const key = `constraint ${c.schema}.${c.table}.${c.name}`
    if (c.inherited || unchanged(key) || rendered.some((r) => relKey(r) === `${c.schema}.${c.table}`))
      continue
    if (inBaseline(key)) problems.push(`${key} differs from its preamble: change it there`)
    else emit(tableFile(c.schema, c.table), 'Tables', addConstraint(quote, c))
  }

  // Indexes, triggers, policies -----------------------------------------------------------------
  for (const i of wanted.indexes) {
    const key = `index ${i.schema}.${i.name}`
    if (i.constraint || i.inherited || unchanged(key)) continue
    if (inBaseline(key)) problems.push(`${key} differs from its preamble: change it there`)
    else
      emit(tableFile(i.schema, i.table), 'Indexes', createIndex(quote, i), `indexes ${i.schema}.${i.table}`)
  }
  const functionsNeededByTables = new Set<string>()
  for (const r of rendered) {
    const texts = [
      ...r.columns.map((c) => c.default ?? ''),
      ...(constraintsOf.get(relKey(r)) ?? []).map((c) => c.definition),
    ].join(' ')
    for (const f of wanted.functions)
      if (texts.includes(`${f.schema}.${f.name}(`)) functionsNeededByTables.add(f.signature)
  }
  const triggerFunctions = new Set(wanted.triggers.map((t) => t.function))
  for (const f of wanted.functions) {
    const key = `function ${f.signature}`
    if (unchanged(key)) continue
    const file = functionFile(f)
    const old = baseline.functions.find((b) => b.signature === f.signature)
    if (old) {
      if (old.definition !== f.definition) emit(file, 'Helper functions', createFunction(quote, f))
      else if (old.comment !== f.comment)
        for (const c of commentOn(`function ${f.signature}`, f.comment)) emit(file, 'Helper functions', c)
      for (const g of aclStatements(
        quote,
        `on function ${f.signature}`,
        old.acl,
        f.acl,
        ['EXECUTE'],
        f.owner,
      ))
        emit(file, 'Grants', g, key)
      continue
    }
    owner(key, f.owner)
    const section: Section = functionsNeededByTables.has(f.signature)
      ? "Functions the tables' checks and defaults call"
      : triggerFunctions.has(f.signature)
        ? 'Triggers'
        : f.schema === 'public'
          ? 'RPCs'
          : 'Helper functions'
    emit(file, section, createFunction(quote, f), key)
    const grants = aclStatements(
      quote,
      `on function ${f.signature}`,
      f.creationAcl,
      f.acl,
      ['EXECUTE'],
      f.owner,
    )
    for (const g of grants) emit(file, section === 'RPCs' ? 'RPCs' : 'Grants', g, key)
  }
  for (const t of wanted.triggers) {
    const key = `trigger ${t.schema}.${t.table}.${t.name}`
    if (unchanged(key)) continue
    const file =
      placement.get(key) ??
      (relationFile.has(`${t.schema}.${t.table}`) && !inBaseline(`table ${t.schema}.${t.table}`)
        ? tableFile(t.schema, t.table)
        : (domainForAttachment(t.name) ??
          functionFile(wanted.functions.find((f) => f.signature === t.function) as Func)))
    const onView = wanted.relations.some((r) => r.schema === t.schema && r.name === t.table && r.kind === 'v')
    if (inBaseline(key)) problems.push(`${key} differs from its preamble: change it there`)
    else if (onView) emit(file, 'Views', createTrigger(quote, t), `view ${t.schema}.${t.table}`)
    else emit(file, 'Triggers', createTrigger(quote, t))
  }
  for (const p of wanted.policies) {
    const key = `policy ${p.schema}.${p.table}."${p.name}"`
    if (unchanged(key)) continue
    const platformTable = inBaseline(`table ${p.schema}.${p.table}`)
    const file =
      placement.get(`policy ${p.schema}.${p.table}.${p.name}`) ??
      (platformTable ? (domainForAttachment(p.name) ?? FALLBACK_FILE) : tableFile(p.schema, p.table))
    if (inBaseline(key)) problems.push(`${key} differs from the platform layer: change it by hand`)
    else emit(file, 'Row-level security', createPolicy(quote, p), `rls ${p.schema}.${p.table}`)
  }
  for (const d of wanted.defaultAcls) {
    const key = `default privileges of ${d.role} in ${d.schema || 'every schema'} on ${d.objectType}`
    if (!unchanged(key)) problems.push(`${key} changed: write that alter default privileges by hand`)
  }
  for (const r of wanted.rules)
    if (!unchanged(`rule ${r.schema}.${r.table}.${r.name}`))
      problems.push(`rule ${r.name} on ${r.table}: render it by hand`)
  for (const e of wanted.eventTriggers)
    if (!unchanged(`event trigger ${e.name}`)) problems.push(`event trigger ${e.name}: render it by hand`)
  for (const [target, list] of deferredForeignKeys)
    problems.push(
      `foreign keys to ${target} (${list.map((c) => c.name).join(', ')}) reference a table no file creates`,
    )
  return { files, problems }
}
