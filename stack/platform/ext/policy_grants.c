/*
 * On hosted Supabase the Storage and Auth tables belong to their servers' roles, yet the project's
 * `postgres` may create, alter and drop policies on them: supautils (`supautils.policy_grants`)
 * runs those statements for it as the superuser. Plain PostgreSQL lets only a table's owner do that,
 * so the local stack compiles this equivalent (stack/src/platform-ext.ts) and preloads it: for the
 * role in `policy_grants.role`, CREATE POLICY, ALTER POLICY and DROP POLICY on a table listed in
 * `policy_grants.tables` run as the bootstrap superuser. Everything else that role does on those
 * tables is checked as usual, so a migration that alters storage.objects fails here as on hosted.
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_authid.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/parsenodes.h"
#include "tcop/utility.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/regproc.h"
#include "utils/varlena.h"

PG_MODULE_MAGIC;

void _PG_init(void);

static char *granted_role = NULL;
static char *granted_tables = NULL;
static ProcessUtility_hook_type previous_hook = NULL;

/* Whether the current role may manage the policies of this table by grant. */
static bool
policy_granted(RangeVar *table)
{
	Oid			target;
	char	   *list;
	List	   *names;
	ListCell   *cell;
	bool		found = false;

	if (superuser() || granted_role == NULL || granted_tables == NULL)
		return false;
	if (strcmp(GetUserNameFromId(GetUserId(), false), granted_role) != 0)
		return false;
	target = RangeVarGetRelid(table, NoLock, true);
	if (!OidIsValid(target))
		return false;			/* the statement reports the missing table itself */
	list = pstrdup(granted_tables);
	if (!SplitIdentifierString(list, ',', &names))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("policy_grants.tables is not a comma-separated list of tables")));
	foreach(cell, names)
	{
		List	   *qualified = stringToQualifiedNameList((const char *) lfirst(cell));

		if (RangeVarGetRelid(makeRangeVarFromNameList(qualified), NoLock, true) == target)
		{
			found = true;
			break;
		}
	}
	return found;
}

/* The table a policy statement is about, or NULL for any other statement. */
static RangeVar *
policy_table(Node *statement)
{
	switch (nodeTag(statement))
	{
		case T_CreatePolicyStmt:
			return ((CreatePolicyStmt *) statement)->table;
		case T_AlterPolicyStmt:
			return ((AlterPolicyStmt *) statement)->table;
		case T_DropStmt:
			{
				DropStmt   *drop = (DropStmt *) statement;
				List	   *object;

				/* DROP POLICY names one policy: the table's name, then the policy's. */
				if (drop->removeType != OBJECT_POLICY || list_length(drop->objects) != 1)
					return NULL;
				object = linitial_node(List, drop->objects);
				return makeRangeVarFromNameList(list_truncate(list_copy(object), list_length(object) - 1));
			}
		default:
			return NULL;
	}
}

static void
run_utility(PlannedStmt *pstmt, const char *queryString, bool readOnlyTree,
			ProcessUtilityContext context, ParamListInfo params,
			QueryEnvironment *queryEnv, DestReceiver *dest, QueryCompletion *qc)
{
	if (previous_hook != NULL)
		previous_hook(pstmt, queryString, readOnlyTree, context, params, queryEnv, dest, qc);
	else
		standard_ProcessUtility(pstmt, queryString, readOnlyTree, context, params, queryEnv, dest, qc);
}

static void
process_utility(PlannedStmt *pstmt, const char *queryString, bool readOnlyTree,
				ProcessUtilityContext context, ParamListInfo params,
				QueryEnvironment *queryEnv, DestReceiver *dest, QueryCompletion *qc)
{
	RangeVar   *table = policy_table(pstmt->utilityStmt);
	Oid			user;
	int			security;

	if (table == NULL || !policy_granted(table))
	{
		run_utility(pstmt, queryString, readOnlyTree, context, params, queryEnv, dest, qc);
		return;
	}
	GetUserIdAndSecContext(&user, &security);
	SetUserIdAndSecContext(BOOTSTRAP_SUPERUSERID,
						   security | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION);
	PG_TRY();
	{
		run_utility(pstmt, queryString, readOnlyTree, context, params, queryEnv, dest, qc);
	}
	PG_FINALLY();
	{
		SetUserIdAndSecContext(user, security);
	}
	PG_END_TRY();
}

void
_PG_init(void)
{
	DefineCustomStringVariable("policy_grants.role",
							   "The role that may manage the policies of the tables in policy_grants.tables.",
							   NULL, &granted_role, NULL, PGC_SIGHUP, 0, NULL, NULL, NULL);
	DefineCustomStringVariable("policy_grants.tables",
							   "Tables (schema.name, comma-separated) whose policies policy_grants.role may manage.",
							   NULL, &granted_tables, NULL, PGC_SIGHUP, 0, NULL, NULL, NULL);
	previous_hook = ProcessUtility_hook;
	ProcessUtility_hook = process_utility;
}
