-- The runner retries a DM step only when it knows the message did not go out (the page failed
-- before the message left, or reading the thread showed it never arrived). The step keeps its one
-- dm_logs row (unique per lead and step, the at-most-once guard); the retry writes its own account,
-- text and time on that row, so a retry that ends uncertain is checked in the right account's thread.

-- Grants ---------------------------------------------------------------------------------------

grant update (account_id, message_sent, sent_at) on public.dm_logs to reachflow_runner;
