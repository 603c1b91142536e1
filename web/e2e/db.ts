// The test stack's database for what a test sets up as the system would (a campaign, a log row)
// and for the rows a test compares the screen with.
import pg from 'pg'

export async function sql<T extends pg.QueryResultRow = Record<string, unknown>>(
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: process.env.SUPABASE_DB_URL })
  await client.connect()
  try {
    return (await client.query<T>(text, params)).rows
  } finally {
    await client.end()
  }
}

export async function userIdOf(email: string): Promise<string> {
  const [row] = await sql<{ id: string }>('select id from auth.users where email = $1', [email])
  if (!row) throw new Error(`no user ${email}`)
  return row.id
}
