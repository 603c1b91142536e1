-- Benchmark data: 1,000,000 items for 1,000 users under an owner RLS policy, each item pointing at
-- one of 500 accounts (the many-to-one parent). Created once per bench instance.
create table if not exists public.bench_accounts (
  id bigint primary key,
  name text not null,
  plan text not null
);

create table if not exists public.bench_items (
  id bigint generated always as identity primary key,
  user_id uuid not null,
  account_id bigint not null references public.bench_accounts (id),
  title text not null,
  amount numeric(10, 2) not null,
  created_at timestamptz not null
);

alter table public.bench_accounts enable row level security;
alter table public.bench_items enable row level security;

drop policy if exists "Signed-in users read accounts" on public.bench_accounts;
create policy "Signed-in users read accounts" on public.bench_accounts for select to authenticated using (true);
drop policy if exists "Users read their items" on public.bench_items;
create policy "Users read their items" on public.bench_items for select to authenticated
  using ((select auth.uid()) = user_id);

insert into public.bench_accounts (id, name, plan)
select n, 'account ' || n, (array['free', 'pro', 'team'])[1 + n % 3]
from generate_series(1, 500) n
on conflict do nothing;

insert into public.bench_items (user_id, account_id, title, amount, created_at)
select md5('bench-user-' || (g % 1000))::uuid, 1 + g % 500, 'item ' || g, (g % 100000) / 100.0,
  timestamptz '2026-01-01' + make_interval(secs => g)
from generate_series(1, 1000000) g
where not exists (select 1 from public.bench_items limit 1);

create index if not exists bench_items_user_created_idx on public.bench_items (user_id, created_at desc);
create index if not exists bench_items_account_idx on public.bench_items (account_id);
analyze public.bench_accounts;
analyze public.bench_items;
