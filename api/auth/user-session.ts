import type { Knex } from 'knex';

/** The spec's User session. */
export interface UserSession {
  id: number;
  email: string;
  email_verified: boolean;
  signup_provider: string;
  name: string | null;
  roles: string[];
  company: { id: number; name: string; email: string; balance: number };
}

/** The columns toUserSession reads, from users joined with companies. */
export const USER_SESSION_COLUMNS = [
  'users.id',
  'users.email',
  'users.email_verified',
  'users.signup_provider',
  'users.name',
  'users.roles',
  'users.created_at',
  'companies.id as company_id',
  'companies.name as company_name',
  'companies.email as company_email',
  'companies.balance as company_balance',
] as const;

/** users joined with their company, ready for toUserSession. */
export function userSessionQuery(db: Knex): Knex.QueryBuilder {
  return db('users')
    .join('companies', 'companies.id', 'users.company_id')
    .select(...USER_SESSION_COLUMNS);
}

export function toUserSession(row: Record<string, unknown>): UserSession {
  return {
    id: Number(row.id),
    email: String(row.email),
    email_verified: Boolean(row.email_verified),
    signup_provider: String(row.signup_provider),
    name: row.name === null || row.name === undefined ? null : String(row.name),
    roles: (row.roles as string[] | null) ?? [],
    company: { id: Number(row.company_id), name: String(row.company_name), email: String(row.company_email), balance: Number(row.company_balance) },
  };
}

/** The session of one user, or null when there is none. */
export async function loadUserSession(db: Knex, userId: number): Promise<UserSession | null> {
  const row = await userSessionQuery(db).where('users.id', userId).first();
  return row ? toUserSession(row) : null;
}
