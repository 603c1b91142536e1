// Reads a database's catalog into plain objects: what the schema check compares and what the schema
// files are rendered from. Extension members, the system schemas and pg_cron's `cron` schema are left
// out (pg_cron's jobs are data kept in migrations), and so are pg-boss's queue_stats_YYYYMMDD
// partitions, which pg-boss creates for the current day when it installs and every day after.
import type pg from 'pg'

/** One privilege as `aclexplode` reports it; `grantee` is '' for PUBLIC. */
export interface Grant {
  grantee: string
  privilege: string
  grantable: boolean
}

interface Owned {
  owner: string
  acl: Grant[]
  /** What the object would get at creation from the hard-wired defaults and pg_default_acl. */
  creationAcl: Grant[]
  comment: string | null
}

export interface Column {
  name: string
  type: string
  notNull: boolean
  default: string | null
  identity: '' | 'a' | 'd'
  generated: '' | 's'
  collation: string | null
  acl: Grant[]
  comment: string | null
}

export interface Relation extends Owned {
  oid: number
  schema: string
  name: string
  /** r table, p partitioned table, v view, m materialized view, S sequence, f foreign table. */
  kind: string
  options: string[]
  unlogged: boolean
  rls: boolean
  forceRls: boolean
  partitionKey: string | null
  partitionOf: string | null
  partitionBound: string | null
  viewDefinition: string | null
  sequence: string | null
  sequenceOwnedBy: string | null
  columns: Column[]
}

export interface Constraint {
  oid: number
  schema: string
  table: string
  name: string
  type: string
  definition: string
  /** Tables this constraint references (foreign keys), schema-qualified. */
  references: string | null
  inherited: boolean
  comment: string | null
}

export interface Index {
  schema: string
  table: string
  name: string
  definition: string
  /** Backs a primary key, unique or exclusion constraint (rendered with the constraint). */
  constraint: boolean
  inherited: boolean
  comment: string | null
}

export interface Func extends Owned {
  oid: number
  schema: string
  name: string
  /** schema.name(argument types): the key a function is known by. */
  signature: string
  kind: string
  language: string
  definition: string
  returnsTrigger: boolean
}

export interface Trigger {
  schema: string
  table: string
  name: string
  definition: string
  enabled: string
  function: string
  comment: string | null
}

export interface Policy {
  schema: string
  table: string
  name: string
  permissive: boolean
  command: string
  roles: string[]
  using: string | null
  check: string | null
  comment: string | null
}

export interface TypeDef extends Owned {
  schema: string
  name: string
  kind: string
  definition: string
}

export interface Schema extends Owned {
  name: string
}

export interface DefaultAcl {
  role: string
  schema: string
  objectType: string
  acl: Grant[]
}

export interface Catalog {
  schemas: Schema[]
  extensions: { name: string; schema: string }[]
  types: TypeDef[]
  relations: Relation[]
  constraints: Constraint[]
  indexes: Index[]
  functions: Func[]
  triggers: Trigger[]
  policies: Policy[]
  rules: { schema: string; table: string; name: string; definition: string }[]
  defaultAcls: DefaultAcl[]
  eventTriggers: { name: string; event: string; function: string; enabled: string; tags: string[] }[]
}

const SCHEMA_FILTER = (column: string) =>
  `${column} <> 'information_schema' and ${column} not like 'pg\\_%' and ${column} <> 'cron'`
const NOT_EXTENSION_MEMBER = (classTable: string, oid: string) =>
  `not exists (select 1 from pg_depend e where e.classid = '${classTable}'::regclass and e.objid = ${oid} and e.deptype = 'e')`
const DATED_PARTITION = `not (n.nspname = 'pgboss' and c.relname ~ '^queue_stats_[0-9]{8}$')`

/** Exploded ACL as JSON; NULL means the hard-wired default, so both spell the same privileges. */
const ACL = (acl: string, kind: string, owner: string) =>
  `coalesce((select json_agg(json_build_object('grantee', coalesce(r.rolname, ''), 'privilege', a.privilege_type,
      'grantable', a.is_grantable) order by coalesce(r.rolname, ''), a.privilege_type)
    from aclexplode(coalesce(${acl}, acldefault((${kind})::"char", ${owner}))) a left join pg_roles r on r.oid = a.grantee), '[]')`
const HARDWIRED = (kind: string, owner: string) => ACL('null::aclitem[]', kind, owner)
const RELATION_KIND = "case when c.relkind = 'S' then 's' else 'r' end"

async function rows<T>(client: pg.Client, sql: string): Promise<T[]> {
  return (await client.query(sql)).rows as T[]
}

type WithBase<T> = T & { hardwired: Grant[]; defaultKind: string; ownerOid: number; namespaceOid: number }

export async function readCatalog(client: pg.Client): Promise<Catalog> {
  // With only pg_catalog on the path, the deparsed text names every other object with its schema.
  await client.query(`set search_path = ''`)
  const defaultAclRows = await rows<DefaultAcl & { roleOid: number; namespaceOid: number }>(
    client,
    `select pg_get_userbyid(d.defaclrole) as role, d.defaclrole::int as "roleOid",
            coalesce(n.nspname, '') as schema, d.defaclnamespace::int as "namespaceOid",
            d.defaclobjtype::text as "objectType", ${ACL('d.defaclacl', "'r'", 'd.defaclrole')} as acl
       from pg_default_acl d left join pg_namespace n on n.oid = d.defaclnamespace
      order by 1, 3, 5`,
  )
  // pg_default_acl's object type letters differ from acldefault's for sequences and types.
  const defaultAclType: Record<string, string> = { r: 'r', s: 'S', f: 'f', T: 'T', n: 'n' }
  const withCreationAcl = <T extends Owned>(object: WithBase<T>): T => {
    const type = defaultAclType[object.defaultKind]
    const entries = defaultAclRows.filter((d) => d.roleOid === object.ownerOid && d.objectType === type)
    const global = entries.find((d) => d.namespaceOid === 0)
    const perSchema = entries.filter((d) => d.namespaceOid !== 0 && d.namespaceOid === object.namespaceOid)
    const merged = [...(global ? global.acl : object.hardwired), ...perSchema.flatMap((d) => d.acl)]
    const unique = new Map(merged.map((g) => [`${g.grantee} ${g.privilege}`, g]))
    const { hardwired: _h, defaultKind: _k, ownerOid: _o, namespaceOid: _n, ...rest } = object
    return { ...(rest as unknown as T), creationAcl: [...unique.values()] }
  }

  const schemas = (
    await rows<WithBase<Schema>>(
      client,
      `select n.nspname as name, pg_get_userbyid(n.nspowner) as owner, ${ACL('n.nspacl', "'n'", 'n.nspowner')} as acl,
              ${HARDWIRED("'n'", 'n.nspowner')} as hardwired, 'n' as "defaultKind", n.nspowner::int as "ownerOid",
              0 as "namespaceOid", obj_description(n.oid, 'pg_namespace') as comment
         from pg_namespace n
        where ${SCHEMA_FILTER('n.nspname')} and ${NOT_EXTENSION_MEMBER('pg_namespace', 'n.oid')}
        order by 1`,
    )
  ).map(withCreationAcl)

  const extensions = await rows<{ name: string; schema: string }>(
    client,
    `select e.extname as name, n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
      where e.extname not in ('plpgsql', 'pg_cron') order by 1`,
  )

  const types = (
    await rows<WithBase<TypeDef>>(
      client,
      `select n.nspname as schema, t.typname as name, t.typtype::text as kind,
              case t.typtype
                when 'e' then (select string_agg(quote_literal(e.enumlabel), ', ' order by e.enumsortorder)
                                 from pg_enum e where e.enumtypid = t.oid)
                when 'd' then format_type(t.typbasetype, t.typtypmod)
                  || case when t.typnotnull then ' not null' else '' end
                  || coalesce(' default ' || t.typdefault, '')
                  || coalesce((select ' ' || string_agg(format('constraint %I %s', c.conname, pg_get_constraintdef(c.oid)), ' ' order by c.conname)
                                 from pg_constraint c where c.contypid = t.oid), '')
                else (select string_agg(format('%I %s', a.attname, format_type(a.atttypid, a.atttypmod)), ', ' order by a.attnum)
                        from pg_attribute a where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped)
              end as definition,
              pg_get_userbyid(t.typowner) as owner, ${ACL('t.typacl', "'T'", 't.typowner')} as acl,
              ${HARDWIRED("'T'", 't.typowner')} as hardwired, 'T' as "defaultKind", t.typowner::int as "ownerOid",
              t.typnamespace::int as "namespaceOid", obj_description(t.oid, 'pg_type') as comment
         from pg_type t join pg_namespace n on n.oid = t.typnamespace
        where ${SCHEMA_FILTER('n.nspname')} and ${NOT_EXTENSION_MEMBER('pg_type', 't.oid')}
          and (t.typtype in ('e', 'd') or (t.typtype = 'c' and (select relkind from pg_class where oid = t.typrelid) = 'c'))
        order by 1, 2`,
    )
  ).map(withCreationAcl)

  const relations = (
    await rows<WithBase<Relation>>(
      client,
      `select c.oid::int as oid, n.nspname as schema, c.relname as name, c.relkind::text as kind,
              coalesce(c.reloptions, '{}') as options, c.relpersistence = 'u' as unlogged,
              c.relrowsecurity as rls, c.relforcerowsecurity as "forceRls",
              case when c.relkind = 'p' then pg_get_partkeydef(c.oid) end as "partitionKey",
              (select i.inhparent::regclass::text from pg_inherits i where i.inhrelid = c.oid and c.relispartition) as "partitionOf",
              case when c.relispartition then pg_get_expr(c.relpartbound, c.oid) end as "partitionBound",
              case when c.relkind in ('v', 'm') then pg_get_viewdef(c.oid, true) end as "viewDefinition",
              case when c.relkind = 'S' then (
                select format('as %s increment by %s minvalue %s maxvalue %s start with %s cache %s%s',
                              format_type(s.seqtypid, null), s.seqincrement, s.seqmin, s.seqmax, s.seqstart, s.seqcache,
                              case when s.seqcycle then ' cycle' else '' end)
                  from pg_sequence s where s.seqrelid = c.oid) end as sequence,
              case when c.relkind = 'S' then (
                select format('%s.%s', d.refobjid::regclass::text, quote_ident(a.attname)) || case d.deptype when 'i' then ' (identity)' else '' end
                  from pg_depend d join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
                 where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.refclassid = 'pg_class'::regclass
                   and d.deptype in ('a', 'i')) end as "sequenceOwnedBy",
              pg_get_userbyid(c.relowner) as owner,
              ${ACL('c.relacl', RELATION_KIND, 'c.relowner')} as acl,
              ${HARDWIRED(RELATION_KIND, 'c.relowner')} as hardwired,
              case when c.relkind = 'S' then 's' else 'r' end as "defaultKind",
              c.relowner::int as "ownerOid", c.relnamespace::int as "namespaceOid",
              obj_description(c.oid, 'pg_class') as comment,
              coalesce((select json_agg(json_build_object(
                  'name', a.attname, 'type', format_type(a.atttypid, a.atttypmod), 'notNull', a.attnotnull,
                  'default', pg_get_expr(ad.adbin, ad.adrelid), 'identity', a.attidentity::text,
                  'generated', a.attgenerated::text,
                  'collation', case when a.attcollation <> t.typcollation then (select collname from pg_collation where oid = a.attcollation) end,
                  'acl', coalesce((select json_agg(json_build_object('grantee', coalesce(r.rolname, ''), 'privilege', x.privilege_type,
                            'grantable', x.is_grantable) order by coalesce(r.rolname, ''), x.privilege_type)
                          from aclexplode(a.attacl) x left join pg_roles r on r.oid = x.grantee), '[]'),
                  'comment', col_description(c.oid, a.attnum)) order by a.attnum)
                 from pg_attribute a join pg_type t on t.oid = a.atttypid
                 left join pg_attrdef ad on ad.adrelid = a.attrelid and ad.adnum = a.attnum
                where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped), '[]') as columns
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f') and ${SCHEMA_FILTER('n.nspname')}
          and ${NOT_EXTENSION_MEMBER('pg_class', 'c.oid')} and ${DATED_PARTITION}
        order by c.oid`,
    )
  ).map(withCreationAcl)

  const constraints = await rows<Constraint>(
    client,
    `select c.oid::int as oid, n.nspname as schema, t.relname as table, c.conname as name, c.contype::text as type,
            pg_get_constraintdef(c.oid) as definition,
            case when c.contype = 'f' then c.confrelid::regclass::text end as references,
            not c.conislocal as inherited, obj_description(c.oid, 'pg_constraint') as comment
       from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_namespace n on n.oid = t.relnamespace
      where ${SCHEMA_FILTER('n.nspname')} and ${NOT_EXTENSION_MEMBER('pg_class', 't.oid')}
        and not (n.nspname = 'pgboss' and t.relname ~ '^queue_stats_[0-9]{8}$')
      order by n.nspname, t.relname, c.conname`,
  )

  const indexes = await rows<Index>(
    client,
    `select n.nspname as schema, t.relname as table, c.relname as name, pg_get_indexdef(c.oid) as definition,
            exists (select 1 from pg_constraint k where k.conindid = c.oid and k.conrelid = t.oid and k.contype in ('p', 'u', 'x')) as constraint,
            exists (select 1 from pg_inherits i where i.inhrelid = c.oid) as inherited,
            obj_description(c.oid, 'pg_class') as comment
       from pg_index x join pg_class c on c.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
       join pg_namespace n on n.oid = c.relnamespace
      where ${SCHEMA_FILTER('n.nspname')} and ${NOT_EXTENSION_MEMBER('pg_class', 't.oid')}
        and not (n.nspname = 'pgboss' and t.relname ~ '^queue_stats_[0-9]{8}$')
      order by t.oid, c.relname`,
  )

  const functions = (
    await rows<WithBase<Func>>(
      client,
      `select p.oid::int as oid, n.nspname as schema, p.proname as name,
              format('%s.%s(%s)', n.nspname, p.proname, oidvectortypes(p.proargtypes)) as signature,
              p.prokind::text as kind, l.lanname as language, pg_get_functiondef(p.oid) as definition,
              p.prorettype = 'trigger'::regtype as "returnsTrigger",
              pg_get_userbyid(p.proowner) as owner, ${ACL('p.proacl', "'f'", 'p.proowner')} as acl,
              ${HARDWIRED("'f'", 'p.proowner')} as hardwired, 'f' as "defaultKind", p.proowner::int as "ownerOid",
              p.pronamespace::int as "namespaceOid", obj_description(p.oid, 'pg_proc') as comment
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace join pg_language l on l.oid = p.prolang
        where p.prokind in ('f', 'p', 'w') and ${SCHEMA_FILTER('n.nspname')} and ${NOT_EXTENSION_MEMBER('pg_proc', 'p.oid')}
        order by 4`,
    )
  ).map(withCreationAcl)

  const triggers = await rows<Trigger>(
    client,
    `select n.nspname as schema, c.relname as table, t.tgname as name, pg_get_triggerdef(t.oid) as definition,
            t.tgenabled::text as enabled, t.tgfoid::regprocedure::text as function,
            obj_description(t.oid, 'pg_trigger') as comment
       from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
      where not t.tgisinternal and ${SCHEMA_FILTER('n.nspname')} and ${NOT_EXTENSION_MEMBER('pg_class', 'c.oid')}
      order by c.oid, t.tgname`,
  )

  const policies = await rows<Policy>(
    client,
    `select n.nspname as schema, c.relname as table, p.polname as name, p.polpermissive as permissive,
            p.polcmd::text as command,
            array(select case when r = 0 then 'public' else pg_get_userbyid(r) end from unnest(p.polroles) r order by 1)::text[] as roles,
            pg_get_expr(p.polqual, p.polrelid) as using, pg_get_expr(p.polwithcheck, p.polrelid) as check,
            obj_description(p.oid, 'pg_policy') as comment
       from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
      where ${SCHEMA_FILTER('n.nspname')}
      order by c.oid, p.polname`,
  )

  const rules = await rows<Catalog['rules'][number]>(
    client,
    `select n.nspname as schema, c.relname as table, r.rulename as name, pg_get_ruledef(r.oid) as definition
       from pg_rewrite r join pg_class c on c.oid = r.ev_class join pg_namespace n on n.oid = c.relnamespace
      where r.rulename <> '_RETURN' and ${SCHEMA_FILTER('n.nspname')} order by 1, 2, 3`,
  )

  const eventTriggers = await rows<Catalog['eventTriggers'][number]>(
    client,
    `select evtname as name, evtevent as event, evtfoid::regproc::text as function, evtenabled::text as enabled,
            coalesce(evttags, '{}') as tags
       from pg_event_trigger order by 1`,
  )

  return {
    schemas,
    extensions,
    types,
    relations,
    constraints,
    indexes,
    functions,
    triggers,
    policies,
    rules,
    defaultAcls: defaultAclRows.map(({ roleOid: _r, namespaceOid: _n, ...rest }) => rest),
    eventTriggers,
  }
}
