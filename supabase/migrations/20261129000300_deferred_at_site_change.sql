-- A DM stopped by a site change before send was pressed is logged deferred (nothing went out, not
-- the account's fault): the status comment says so.
comment on column public.dm_logs.status is
  'sent (confirmed on the page), failed / error (not sent), uncertain (could not confirm; the runner checks the thread later), deferred (not attempted: the DM page ran out of time before send was pressed, the machine or network was slow, or the page met a site change; not held against the account, left out of the failed figures, the step is due again).';
