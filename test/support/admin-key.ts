import { generateApiKey, insertApiKey } from '../../api/accounts/api-keys.js';
import type { Db } from '../../api/db/connect.js';

/** A new admin user of the account, written straight into the database, and an API key of that user. */
export async function adminUserKey(db: Db, companyId: number): Promise<{ userId: number; key: string }> {
  const [user] = await db('users')
    .insert({ company_id: companyId, email: `roles${Date.now()}${Math.random()}@example.test`, name: 'Roles', roles: JSON.stringify(['user', 'admin']) })
    .returning('id');
  const key = generateApiKey();
  await insertApiKey(db, companyId, key, 'admin key', Number(user.id));
  return { userId: Number(user.id), key };
}
