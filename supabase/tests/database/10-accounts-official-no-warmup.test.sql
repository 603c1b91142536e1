-- Official accounts have no browser to warm up: an official X account starts past warm-up (as an
-- official Instagram one does) and the scheduler queues no warm-up step for an official account,
-- while a browser account warming up still gets its step. The scheduler also deletes OAuth
-- connects that expired unfinished (their sealed keys), and keeps the ones still usable.
begin;
select plan(6);

select tests.create_supabase_user('nw_owner');
select tests.give_plan('nw_owner', 5);
select (public.connect_official_x_account(tests.get_supabase_uid('nw_owner'), 'nw_x_official', '1690000071', 'k1', 'k1:dG9rZW5z')) ->> 'id' as x_official \gset
select is((select warmup_phase from public.social_accounts where id = :'x_official'), 5,
  'an official X account starts past warm-up');

select tests.create_social_account('nw_owner', 'nw_browser', 'twitter') as browser \gset
update public.social_accounts set warmup_phase = 1, warmup_started_at = now() - interval '2 days'
 where id in (:'browser', :'x_official');
select internal.enqueue_due_work();
select is((select count(*)::int from pgboss.job where name = 'warmup.step' and data ->> 'accountId' = :'browser'), 1,
  'a browser account warming up gets its day''s step');
select is((select count(*)::int from pgboss.job where name = 'warmup.step' and data ->> 'accountId' = :'x_official'), 0,
  'an official account gets none, whatever its phase says');
select is((select warmup_step_on from public.social_accounts where id = :'x_official'), null,
  '... nor is a step counted for it');

insert into public.x_oauth_requests (user_id, state_hash, key_id, sealed, redirect_uri, expires_at)
values (tests.get_supabase_uid('nw_owner'), 'expired-state', 'k1', 'k1:c2VhbGVk', 'http://x/cb', now() - interval '1 second'),
       (tests.get_supabase_uid('nw_owner'), 'live-state', 'k1', 'k1:c2VhbGVk', 'http://x/cb', now() + interval '5 minutes');
insert into internal.instagram_oauth_states (state_hash, user_id, expires_at)
values (repeat('a', 64), tests.get_supabase_uid('nw_owner'), internal.now() - interval '1 second');
select internal.enqueue_due_work();
select results_eq($$select state_hash from public.x_oauth_requests where user_id = tests.get_supabase_uid('nw_owner')$$,
  $$values ('live-state'::text)$$, 'an expired X connect is deleted with its sealed keys; a live one stays');
select is((select count(*)::int from internal.instagram_oauth_states where state_hash = repeat('a', 64)), 0,
  'an expired Instagram connect state is deleted');

select * from finish();
rollback;
