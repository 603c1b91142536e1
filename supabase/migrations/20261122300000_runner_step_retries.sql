-- The runner retries a DM step only when it knows the message did not go out (the page failed
-- before the message left, or reading the thread showed it never arrived). The step keeps its one
-- dm_logs row (unique per lead and step, the at-most-once guard); the retry writes its own account,
-- text and time on that row, so a retry that ends uncertain is checked in the right account's thread.

-- Grants ---------------------------------------------------------------------------------------

grant update (account_id, message_sent, sent_at) on public.dm_logs to reachflow_runner;

-- The lead's step and due time follow from what was recorded, never from the runner: a lead that
-- comes back from an attempt (`sending`/`uncertain` → `pending`/`sent`) whose dm_logs row for the
-- step says it did not go out (`failed`, `error`) keeps its step and is due again after a backoff
-- (5 minutes doubling per attempt, at most 6 hours, on the test clock); one whose row says `sent`
-- moves on as before. A `sent` lead whose campaign has no follow-up left for its step has nothing due.
create or replace function internal.prepare_campaign_lead()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  campaign record;
  follow_ups integer;
  step_status text;
begin
  if tg_op = 'INSERT' then
    select c.user_id into new.user_id from public.campaigns c where c.id = new.campaign_id;
    new.username := ltrim(btrim(new.username), '@');
  end if;

  if tg_op = 'UPDATE' and new.state in ('pending', 'sent') and old.state in ('sending', 'uncertain') then
    select d.status into step_status
      from public.dm_logs d where d.campaign_lead_id = new.id and d.step = old.current_step;
  end if;

  if step_status in ('failed', 'error') then
    -- not delivered: the same step again, later
    new.current_step := old.current_step;
    new.next_send_at := internal.now()
      + least(interval '6 hours', interval '5 minutes' * power(2, greatest(0, new.attempts - 1)));
  elsif tg_op = 'UPDATE' and new.state = 'sent' and old.state is distinct from 'sent' then
    -- a send recorded as sent moves the lead to its next step; a follow-up is due followUpDays later
    new.last_sent_at := coalesce(new.last_sent_at, internal.now());
    if new.current_step = old.current_step then
      new.current_step := old.current_step + 1;
    end if;
    select c.sequences into campaign from public.campaigns c where c.id = new.campaign_id;
    select count(*) into follow_ups
      from jsonb_array_elements_text(campaign.sequences -> 'followUpMessages') m where btrim(m) <> '';
    if (campaign.sequences ->> 'followUpEnabled')::boolean and new.current_step <= follow_ups then
      new.next_send_at := new.last_sent_at + make_interval(days => (campaign.sequences ->> 'followUpDays')::int);
    else
      new.next_send_at := null;
    end if;
  elsif tg_op = 'UPDATE' and new.state = 'sent' and new.next_send_at is not null
        and new.next_send_at is not distinct from old.next_send_at then
    -- a follow-up is due: still, if the campaign has one for this step (follow-ups can be removed;
    -- a due time set in this very update is kept)
    select c.sequences into campaign from public.campaigns c where c.id = new.campaign_id;
    select count(*) into follow_ups
      from jsonb_array_elements_text(campaign.sequences -> 'followUpMessages') m where btrim(m) <> '';
    if not coalesce((campaign.sequences ->> 'followUpEnabled')::boolean, false) or new.current_step > follow_ups then
      new.next_send_at := null;
    end if;
  end if;

  -- next_send_at is set exactly while something is due: pending leads now, follow-ups later.
  if new.replied_at is not null or new.state in ('sending', 'failed', 'uncertain', 'skipped') then
    new.next_send_at := null;
  elsif new.state = 'pending' and new.next_send_at is null then
    new.next_send_at := internal.now();
  end if;
  if new.state = 'sending' and (tg_op = 'INSERT' or old.state is distinct from 'sending') then
    new.attempts := new.attempts + 1;
  end if;
  return new;
end
$$;
comment on function internal.prepare_campaign_lead() is
  'BEFORE INSERT/UPDATE on campaign_leads: owner from the campaign; keeps current_step and next_send_at consistent with state, replies and the step''s dm_logs row (retries of undelivered steps back off).';

-- The runner records outcomes; the step and the due time are the trigger's alone.
revoke update (current_step, next_send_at) on public.campaign_leads from reachflow_runner;
