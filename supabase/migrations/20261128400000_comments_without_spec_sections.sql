-- Catalog comments that cited sections of a brief the repository does not hold now say the rule
-- itself or point to docs/product.md (written by `npm run db:diff` from supabase/schemas).

SET local check_function_bodies = off;

COMMENT ON FUNCTION "internal"."assert_admin"() IS 'Raises the product''s 403 text (Access denied - admin privileges required) unless the caller is an admin or the service role.';

COMMENT ON FUNCTION "public"."todays_overview"() IS 'Sidebar "Today''s Overview": messages sent and replies received today in the customer''s time zone, plus the estimate the original brief asked for (15% of sent, floored).';

COMMENT ON VIEW "public"."lead_view" IS 'The Leads tab: the caller''s campaign leads and scraped leads in one list (product.md §3). Page it with order=collected_at.desc, limit/offset and count=exact. Shows only the caller''s rows (it filters by auth.uid() itself).';
