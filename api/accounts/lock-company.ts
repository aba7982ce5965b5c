import type { Knex } from 'knex';

/**
 * Locks an account's row until the transaction ends, so that changes to one account (its balance, keys,
 * subscription, payment methods) happen one after the other; callers add the columns they read.
 *
 * FOR NO KEY UPDATE, not FOR UPDATE: every row inserted with the account's id (a record, a file, a ledger
 * row) takes a KEY SHARE lock on the account's row through its foreign key, and FOR UPDATE waits for those.
 * Two result transactions that had each inserted a file and then locked the account waited on each other,
 * and Postgres killed one ("deadlock detected"; test/integration/result-concurrency.test.ts): its result
 * came back only with the queue's redelivery, seconds later. NO KEY UPDATE still excludes every other lock
 * taken here, and the balance is not a key.
 */
export function lockCompany(trx: Knex.Transaction, companyId: number): Knex.QueryBuilder {
  return trx('companies').where({ id: companyId }).forNoKeyUpdate();
}
