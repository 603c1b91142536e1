-- internal.is_random_day_off() was declared immutable although its body is only stable (date-to-text
-- output depends on DateStyle), and PostgreSQL does not inline an immutable SQL function whose body
-- is not immutable. So the scheduler called it as a separate function, with its own executor start
-- and end, for every campaign whose window was open: about a tenth of a steady-state minute's CPU.
-- Declared stable it is inlined into the scheduler's query; it still answers the same draw for the
-- same campaign and day. The date is written with to_char('YYYY-MM-DD'), which is what date::text
-- gives under the ISO DateStyle every Reachflow session uses, now independent of that setting.

create or replace function internal.is_random_day_off(campaign_id uuid, day date)
returns boolean
language sql
stable
as $$
  -- A stable pseudo-random draw per campaign and date: about one day in seven is off.
  select mod(pg_catalog.abs(('x' || pg_catalog.left(pg_catalog.md5(campaign_id::text || ':' || pg_catalog.to_char(day::timestamp, 'YYYY-MM-DD')), 7))::bit(28)::integer), 7) = 0
$$;
