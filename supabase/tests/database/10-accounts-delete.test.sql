-- Deleting an account pauses its campaigns with a reason instead of stranding them.
begin;
select plan(4);

select tests.create_supabase_user('deleter');
select tests.give_plan('deleter', 5);
select tests.create_social_account('deleter', 'deleter_x') as account \gset

insert into public.scraping_campaigns (user_id, name, account_id, sources, target_count, status)
values (tests.get_supabase_uid('deleter'), 'Running scrape', :'account', '[{"type": "followers", "value": "a"}]', 10, 'running'),
       (tests.get_supabase_uid('deleter'), 'Never started', :'account', '[{"type": "followers", "value": "b"}]', 10, 'pending');
insert into public.campaigns (user_id, name, account_id, sequences, status)
values (tests.get_supabase_uid('deleter'), 'Sending', :'account', '{"messages": ["hi"]}', 'running'),
       (tests.get_supabase_uid('deleter'), 'A draft', :'account', '{"messages": ["hi"]}', 'draft');

select tests.authenticate_as('deleter');
select lives_ok(format($$select public.delete_social_account(%L)$$, :'account'), 'the owner deletes the account');
select results_eq(
  $$select name, status, account_id is null, error_message from public.scraping_campaigns order by name$$,
  $$values ('Never started', 'pending', true, 'Its account was deleted. Create a new scraping campaign with another account.'),
           ('Running scrape', 'paused', true, 'Its account was deleted. Create a new scraping campaign with another account.')$$,
  'its running scraping campaign is paused, a never-started one stays so; both without an account say what to do');
select results_eq(
  $$select name, status, account_id is null, error_message from public.campaigns order by name$$,
  $$values ('A draft', 'draft', true, 'Its account was deleted. Choose another account in the campaign to send again.'),
           ('Sending', 'paused', true, 'Its account was deleted. Choose another account in the campaign to send again.')$$,
  'its DM campaigns stop (a draft stays a draft) and say what to do');
select throws_ok($$update public.campaigns set status = 'queued' where name = 'Sending'$$, '22023',
  'Choose an account before launching the campaign', 'a campaign without an account cannot be resumed');

select * from finish();
rollback;
