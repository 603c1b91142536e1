-- Per-variant results: message variants recorded by the runner, campaign_variant_stats
-- per variant (sent, replies, retired texts, unknown variant for old logs), the winner rule, and who
-- may read or write what.
begin;
select plan(17);

select tests.create_supabase_user('owner');
select tests.create_supabase_user('other');
select tests.give_plan('owner', 5);
select tests.create_social_account('owner', 'owner_x') as account \gset

insert into public.scraping_campaigns (user_id, name, account_id, sources, target_count)
values (tests.get_supabase_uid('owner'), 'Source', :'account', '[{"type": "keyword", "value": "saas"}]', 100)
returning id as source \gset
insert into public.scraping_campaign_leads (scraping_campaign_id, user_id, username, profile_data, is_filtered)
select :'source', tests.get_supabase_uid('owner'), 'lead' || n, '{}', false from generate_series(1, 5) n;

select tests.authenticate_as('owner');
insert into public.campaigns (user_id, name, account_id, scraping_campaign_id, sequences)
values (auth.uid(), 'Variants', :'account', :'source',
        '{"messages": ["Hi A", "", "Hi B"], "noFirstnameMessage": "Hey there", "followUpEnabled": true, "followUpMessages": ["Bump"]}')
returning id as campaign \gset

-- The runner records the texts it sends and which one each DM used ----------------------------------
select tests.authenticate_as_runner();
insert into public.message_variants (campaign_id, step, kind, slot, template)
values (:'campaign', 0, 'opening', 0, 'Hi A') returning id as variant_a \gset
insert into public.message_variants (campaign_id, step, kind, slot, template)
values (:'campaign', 0, 'opening', 1, 'Hi B') returning id as variant_b \gset
insert into public.message_variants (campaign_id, step, kind, slot, template)
values (:'campaign', 1, 'follow_up', 0, 'Bump') returning id as bump \gset

select results_eq(
  format($$select user_id from public.message_variants where id = %L$$, :'variant_a'),
  format($$values (%L::uuid)$$, tests.get_supabase_uid('owner')),
  'a variant belongs to the campaign''s owner');
select throws_ok(
  format($$insert into public.message_variants (campaign_id, step, kind, slot, template) values (%L, 0, 'opening', 3, 'Hi A')$$, :'campaign'),
  '23505', null, 'one variant per text: the same text sent from another slot is the same variant');
select throws_ok(
  format($$insert into public.message_variants (campaign_id, step, kind, slot, template) values (%L, 1, 'opening', 0, 'Hi C')$$, :'campaign'),
  '23514', null, 'opening variants are step 0, follow-ups later steps');

select id as lead1 from public.campaign_leads where campaign_id = :'campaign' and username = 'lead1' \gset
select id as lead2 from public.campaign_leads where campaign_id = :'campaign' and username = 'lead2' \gset
select id as lead3 from public.campaign_leads where campaign_id = :'campaign' and username = 'lead3' \gset
select id as lead4 from public.campaign_leads where campaign_id = :'campaign' and username = 'lead4' \gset
select id as lead5 from public.campaign_leads where campaign_id = :'campaign' and username = 'lead5' \gset
-- lead1 and lead2 got A and replied (lead2 only after its follow-up; lead1's A as the AI rewrote it);
-- lead3 got B and did not reply; lead4's B failed (not sent); lead5's first DM went out before
-- variants were recorded.
insert into public.dm_logs (campaign_id, campaign_lead_id, step, status, target_username, message_sent, sent_at, variant_id, variant_index, personalization)
values (:'campaign', :'lead1', 0, 'sent', 'lead1', 'Hi Ann, your thread on pricing was great', '2026-11-02 10:00Z', :'variant_a', 0, 'personalized'),
       (:'campaign', :'lead2', 0, 'sent', 'lead2', 'Hi A', '2026-11-02 10:00Z', :'variant_a', 0, 'fallback'),
       (:'campaign', :'lead2', 1, 'sent', 'lead2', 'Bump', '2026-11-05 10:00Z', :'bump', 0, null),
       (:'campaign', :'lead3', 0, 'sent', 'lead3', 'Hi B', '2026-11-02 11:00Z', :'variant_b', 1, null),
       (:'campaign', :'lead4', 0, 'failed', 'lead4', 'Hi B, about your shop', '2026-11-02 12:00Z', :'variant_b', 1, 'personalized'),
       (:'campaign', :'lead5', 0, 'sent', 'lead5', 'Hi old', '2026-11-01 09:00Z', null, null, null);
update public.campaign_leads set replied_at = '2026-11-02 13:00Z' where id in (:'lead1', :'lead5');
update public.campaign_leads set replied_at = '2026-11-06 09:00Z' where id = :'lead2';

-- Reading the results ----------------------------------------------------------------------------
select tests.authenticate_as('owner');
select results_eq(
  format($$select template, sent, personalized, personalized_sample from public.campaign_variant_stats(%L)
            where kind = 'opening' order by first_slot$$, :'campaign'),
  $$values ('Hi A', 2, 1, 'Hi Ann, your thread on pricing was great'), ('Hi B', 1, 0, null)$$,
  'a variant the AI rewrote is credited with its sends and says how many went out as the AI wrote them, and what (a fallback or a failed send is not one)');
select results_eq(
  format($$select kind, template, first_slot, current_slot, sent, replies, is_winner from public.campaign_variant_stats(%L)$$, :'campaign'),
  $$values ('opening', 'Hi A', 0, 0, 2, 2, false), ('opening', 'Hi B', 1, 1, 1, 0, false),
           ('no_name', 'Hey there', 0, 0, 0, 0, false), ('unknown', null, null, null, 1, 1, false),
           ('follow_up', 'Bump', 0, 0, 1, 1, false)$$,
  'per variant: sends confirmed, replies of its leads, the unused no-name message at 0, old logs as unknown, the follow-up credited with the reply after it');
select results_eq(
  format($$select variant_id, first_sent_at from public.campaign_variant_stats(%L) where kind = 'opening' order by first_slot$$, :'campaign'),
  format($$values (%L::uuid, '2026-11-02 10:00Z'::timestamptz), (%L::uuid, '2026-11-02 11:00Z'::timestamptz)$$, :'variant_a', :'variant_b'),
  'each row names its variant and when it was first sent');

-- Editing the messages keeps history with the texts that were sent
update public.campaigns set sequences = sequences || '{"messages": ["Hi B", "Hi A, edited"]}' where id = :'campaign';
select results_eq(
  format($$select template, first_slot, current_slot, sent from public.campaign_variant_stats(%L) where kind = 'opening'$$, :'campaign'),
  $$values ('Hi B', 1, 0, 1), ('Hi A, edited', 1, 1, 0), ('Hi A', 0, null, 2)$$,
  'an edited text is a new variant at 0 sends; the old one keeps its sends and is marked as no longer used');

-- The winner rule --------------------------------------------------------------------------------
select throws_ok(
  format($$update public.campaigns set winner_after_sends = 20 where id = %L$$, :'campaign'),
  '23514', null, 'the winner needs at least 30 sends per variant');
update public.campaigns set winner_after_sends = 50 where id = :'campaign';
select throws_ok(
  format($$update public.campaigns set winner_variant_id = %L where id = %L$$, :'variant_b', :'campaign'),
  '42501', 'permission denied for table campaigns', 'only the runner chooses the winner');

select tests.authenticate_as_runner();
update public.campaigns set winner_variant_id = :'variant_b', winner_chosen_at = '2026-11-10 08:00Z' where id = :'campaign';
select tests.authenticate_as('owner');
select results_eq(
  format($$select template from public.campaign_variant_stats(%L) where is_winner$$, :'campaign'),
  $$values ('Hi B')$$,
  'the chosen winner is marked');
update public.campaigns set winner_after_sends = 100 where id = :'campaign';
select results_eq(
  format($$select winner_variant_id, winner_chosen_at from public.campaigns where id = %L$$, :'campaign'),
  format($$values (%L::uuid, '2026-11-10 08:00Z'::timestamptz)$$, :'variant_b'),
  'changing N keeps a winner already chosen');
update public.campaigns set sequences = sequences || '{"messages": ["Hi A, edited", "Hi C"]}' where id = :'campaign';
select results_eq(
  format($$select winner_variant_id, winner_chosen_at from public.campaigns where id = %L$$, :'campaign'),
  $$values (null::uuid, null::timestamptz)$$,
  'a winner whose text was edited away is forgotten: the current messages are balanced again');

select tests.authenticate_as_runner();
update public.campaigns set winner_variant_id = :'variant_a', winner_chosen_at = now() where id = :'campaign';
select results_eq(
  format($$select winner_variant_id from public.campaigns where id = %L$$, :'campaign'),
  $$values (null::uuid)$$,
  'a text that is not one of the current messages cannot win');
select tests.clear_authentication();
update public.campaigns set sequences = sequences || '{"messages": ["Hi A", "Hi C"]}', winner_variant_id = :'variant_a'
 where id = :'campaign';
select tests.authenticate_as('owner');
update public.campaigns set winner_after_sends = null where id = :'campaign';
select results_eq(
  format($$select winner_variant_id from public.campaigns where id = %L$$, :'campaign'),
  $$values (null::uuid)$$,
  'turning the rule off forgets the winner');

-- Other customers -------------------------------------------------------------------------------
select throws_ok(
  format($$insert into public.message_variants (campaign_id, step, kind, slot, template) values (%L, 0, 'opening', 0, 'x')$$, :'campaign'),
  '42501', 'permission denied for table message_variants', 'customers cannot write variants');
select tests.authenticate_as('other');
select throws_ok(
  format($$select * from public.campaign_variant_stats(%L)$$, :'campaign'),
  'PT404', 'Campaign not found', 'another customer''s campaign is not found');
select is_empty('select * from public.message_variants', 'another customer sees no variants');

select * from finish();
rollback;
