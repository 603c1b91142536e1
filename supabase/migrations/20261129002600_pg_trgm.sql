-- pg_trgm, for the trigram index the do-not-contact search reads (the next migration). Hosted
-- Supabase offers it in the extensions schema; pg-delta does not write extensions, so by hand.
create extension if not exists pg_trgm with schema extensions;
