// Computed fields and computed relationships: functions of a table's row type, as PostgREST 14 uses
// them. The file creates its own tables and functions (gw_cp_*) and drops them afterwards.
//
// Sources: https://docs.postgrest.org/en/v14/references/api/computed_fields.html (in select, filters
// and order; not part of `*`); https://docs.postgrest.org/en/v14/references/api/resource_embedding.html#computed-relationships
// (`returns setof t rows 1` is to-one, `setof t` to-many, overriding detected relationships);
// PostgREST 14 src/PostgREST/SchemaCache.hs (allComputedRels: `not proretset or prorows = 1` is
// to-one; getOverrideRelationshipsMap), src/PostgREST/Plan.hs (findRel matches a computed
// relationship by function name) and src/PostgREST/Query/QueryBuilder.hs (fromF: the function
// called with the parent row).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, cols, raw, serviceHeaders, sql } from './rest-helpers.ts'

const anon = client()

const DROP = 'drop table if exists public.gw_cp_pets, public.gw_cp_people cascade'

const FIXTURES = `
${DROP};
create table public.gw_cp_people (id int primary key, first_name text not null, last_name text not null);
create table public.gw_cp_pets (
  id int primary key,
  owner_id int not null references public.gw_cp_people (id),
  name text not null,
  legs int not null
);
insert into public.gw_cp_people values (1, 'Ada', 'Lovelace'), (2, 'Alan', 'Turing'), (3, 'Grace', 'Hopper');
insert into public.gw_cp_pets values (1, 1, 'Rex', 4), (2, 1, 'Polly', 2), (3, 2, 'Tom', 4);

-- A computed field, with an unnamed parameter as PostgREST's docs suggest.
create function public.gw_cp_full_name(public.gw_cp_people) returns text
language sql stable as $$ select $1.first_name || ' ' || $1.last_name $$;

-- Computed relationships: to-many, to-one by rows 1, to-one by returning one row, and one named like
-- the table gw_cp_pets that replaces the foreign-key relationship people → pets.
create function public.gw_cp_four_legged(public.gw_cp_people) returns setof public.gw_cp_pets
language sql stable as $$ select * from public.gw_cp_pets where owner_id = $1.id and legs = 4 order by id $$;
create function public.gw_cp_first_pet(public.gw_cp_people) returns setof public.gw_cp_pets rows 1
language sql stable as $$ select * from public.gw_cp_pets where owner_id = $1.id order by id limit 1 $$;
create function public.gw_cp_owner(public.gw_cp_pets) returns public.gw_cp_people
language sql stable as $$ select * from public.gw_cp_people where id = $1.owner_id $$;
create function public.gw_cp_pets(public.gw_cp_people) returns setof public.gw_cp_pets
language sql stable as $$ select * from public.gw_cp_pets where owner_id = $1.id and legs > 2 order by id $$;
grant select on public.gw_cp_people, public.gw_cp_pets to anon;
`

beforeAll(async () => {
  await sql(FIXTURES)
  await sql("notify pgrst, 'reload schema'")
  for (let i = 0; i < 100; i++) {
    const response = await raw('/gw_cp_people?select=gw_cp_full_name,gw_cp_pets(id)&limit=1')
    if (response.status === 200) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('The gateway did not pick up the computed fixtures')
})

afterAll(() => sql(DROP))

describe('computed fields', () => {
  it('selects a computed field by name or alias, with a cast, and leaves it out of *', async () => {
    const response = await raw(
      '/gw_cp_people?select=id,gw_cp_full_name,full:gw_cp_full_name::varchar&order=id',
    )
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual([
      { id: 1, gw_cp_full_name: 'Ada Lovelace', full: 'Ada Lovelace' },
      { id: 2, gw_cp_full_name: 'Alan Turing', full: 'Alan Turing' },
      { id: 3, gw_cp_full_name: 'Grace Hopper', full: 'Grace Hopper' },
    ])
    const star = await raw('/gw_cp_people?select=*&id=eq.1')
    expect(await star.json()).toEqual([{ id: 1, first_name: 'Ada', last_name: 'Lovelace' }])
  })

  it('filters and orders on a computed field', async () => {
    const eq = await raw(`/gw_cp_people?select=id&gw_cp_full_name=eq.${encodeURIComponent('Alan Turing')}`)
    expect(await eq.json()).toEqual([{ id: 2 }])
    const fts = await raw('/gw_cp_people?select=id&gw_cp_full_name=fts.hopper')
    expect(await fts.json()).toEqual([{ id: 3 }])
    const or = await raw(
      `/gw_cp_people?select=id&or=(gw_cp_full_name.like.Ada*,id.eq.3)&order=gw_cp_full_name.desc`,
    )
    expect(await or.json()).toEqual([{ id: 3 }, { id: 1 }])
    const { data, error } = await anon
      .from('gw_cp_people')
      .select(cols('id, name:gw_cp_full_name'))
      .ilike('gw_cp_full_name', '%turing')
    expect(error).toBeNull()
    expect(data).toEqual([{ id: 2, name: 'Alan Turing' }])
  })

  it('works inside an embedded resource', async () => {
    const response = await raw('/gw_cp_pets?select=name,owner:gw_cp_people!owner_id(gw_cp_full_name)&id=eq.3')
    expect(await response.json()).toEqual([{ name: 'Tom', owner: { gw_cp_full_name: 'Alan Turing' } }])
  })

  it('still answers 42703 for a name that is neither a column nor a computed field', async () => {
    const response = await raw('/gw_cp_people?select=id,gw_cp_nope')
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      code: '42703',
      details: null,
      hint: null,
      message: 'column gw_cp_people.gw_cp_nope does not exist',
    })
  })
})

describe('computed relationships', () => {
  it('embeds a setof function as to-many (an empty array when it returns nothing)', async () => {
    const response = await raw('/gw_cp_people?select=id,gw_cp_four_legged(name)&order=id')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual([
      { id: 1, gw_cp_four_legged: [{ name: 'Rex' }] },
      { id: 2, gw_cp_four_legged: [{ name: 'Tom' }] },
      { id: 3, gw_cp_four_legged: [] },
    ])
  })

  it('embeds rows 1 and single-row functions as to-one (null when it returns nothing)', async () => {
    const first = await raw('/gw_cp_people?select=id,pet:gw_cp_first_pet(name)&order=id')
    expect(await first.json()).toEqual([
      { id: 1, pet: { name: 'Rex' } },
      { id: 2, pet: { name: 'Tom' } },
      { id: 3, pet: null },
    ])
    const owner = await raw(
      '/gw_cp_pets?select=name,gw_cp_owner(first_name)&order=gw_cp_owner(first_name).desc,id',
    )
    expect(owner.status).toBe(200)
    expect(await owner.json()).toEqual([
      { name: 'Tom', gw_cp_owner: { first_name: 'Alan' } },
      { name: 'Rex', gw_cp_owner: { first_name: 'Ada' } },
      { name: 'Polly', gw_cp_owner: { first_name: 'Ada' } },
    ])
  })

  it('overrides the foreign-key relationship to the table it is named after', async () => {
    // By the foreign key, Ada's pets would be Rex and Polly; the function keeps those with legs > 2.
    const response = await raw('/gw_cp_people?select=id,gw_cp_pets(name)&id=eq.1')
    expect(await response.json()).toEqual([{ id: 1, gw_cp_pets: [{ name: 'Rex' }] }])
  })

  it('takes !inner, embedded filters and supabase-js', async () => {
    const inner = await raw('/gw_cp_people?select=id,gw_cp_first_pet!inner(name)&order=id')
    expect(await inner.json()).toEqual([
      { id: 1, gw_cp_first_pet: { name: 'Rex' } },
      { id: 2, gw_cp_first_pet: { name: 'Tom' } },
    ])
    const { data, error } = await anon
      .from('gw_cp_people')
      .select(cols('id, legs4:gw_cp_four_legged!inner(name)'))
      .eq('legs4.name', 'Tom')
    expect(error).toBeNull()
    expect(data).toEqual([{ id: 2, legs4: [{ name: 'Tom' }] }])
  })
})

describe('in a write representation', () => {
  it('returns computed fields and computed relationships of the written rows', async () => {
    const response = await raw('/gw_cp_people?select=id,gw_cp_full_name,gw_cp_four_legged(name)&id=eq.1', {
      method: 'PATCH',
      headers: { ...serviceHeaders, 'Content-Type': 'application/json', Prefer: 'return=representation' },
      body: JSON.stringify({ first_name: 'Augusta Ada' }),
    })
    // Restored before asserting, so a failure leaves the fixture as the other tests expect it.
    await sql("update public.gw_cp_people set first_name = 'Ada' where id = 1")
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual([
      { id: 1, gw_cp_full_name: 'Augusta Ada Lovelace', gw_cp_four_legged: [{ name: 'Rex' }] },
    ])
  })
})
