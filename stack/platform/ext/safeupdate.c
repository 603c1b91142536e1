/*
 * Hosted Supabase loads pg-safeupdate into the Data API's sessions (`alter role authenticator set
 * session_preload_libraries = 'safeupdate'`), so an UPDATE or DELETE without a WHERE clause, also
 * one inside a data-modifying WITH or a function the request calls, fails there with SQLSTATE 21000.
 * Debian ships no package of it, so the local stack compiles this equivalent when it sets up
 * (stack/src/platform-ext.ts): same library name, same `safeupdate.enabled` setting, same rule (the
 * statement's parse tree must carry a WHERE condition, so `where true` passes) and same messages.
 */
#include "postgres.h"

#include "fmgr.h"
#include "nodes/parsenodes.h"
#include "parser/analyze.h"
#include "utils/guc.h"

PG_MODULE_MAGIC;

void _PG_init(void);

static bool enabled = true;
static post_parse_analyze_hook_type previous_hook = NULL;

static void
require_where(Query *query)
{
	ListCell   *cell;

	/* WITH gone AS (DELETE FROM t RETURNING 1) SELECT ... is checked like a plain DELETE. */
	if (query->hasModifyingCTE)
	{
		foreach(cell, query->cteList)
		{
			CommonTableExpr *cte = lfirst_node(CommonTableExpr, cell);

			require_where(castNode(Query, cte->ctequery));
		}
	}
	if (query->commandType != CMD_DELETE && query->commandType != CMD_UPDATE)
		return;
	if (query->jointree != NULL && query->jointree->quals != NULL)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_CARDINALITY_VIOLATION),
			 errmsg("%s requires a WHERE clause",
					query->commandType == CMD_DELETE ? "DELETE" : "UPDATE")));
}

static void
after_parse_analyze(ParseState *pstate, Query *query, JumbleState *jstate)
{
	if (enabled)
		require_where(query);
	if (previous_hook != NULL)
		previous_hook(pstate, query, jstate);
}

void
_PG_init(void)
{
	DefineCustomBoolVariable("safeupdate.enabled",
							 "Refuse UPDATE and DELETE statements without a WHERE clause.",
							 NULL,
							 &enabled,
							 true,
							 PGC_SUSET,
							 0,
							 NULL, NULL, NULL);
	previous_hook = post_parse_analyze_hook;
	post_parse_analyze_hook = after_parse_analyze;
}
