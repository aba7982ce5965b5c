import { expect } from 'chai';
import { migrateDownTo, migrateLatest, migrateUpTo } from '../../api/db/migrate.js';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../support/databases.js';

/**
 * Migration 012 on accounts made before it: the accounts opened by signup learn their inbox, and each inbox's
 * free grant goes to its first verified account, as the new rule would have given it.
 */
for (const kind of DATABASE_KINDS)
  describe(`migration 012: signup accounts and their inboxes' free grants (${kind})`, function () {
    this.timeout(60_000);
    let t: TestDatabase;

    before(async () => {
      t = await openTestDatabase(kind);
      await migrateUpTo(t.db, '011-options-from-spec');
    });
    after(async () => t?.drop());

    it('marks signup accounts with their inbox, gives each inbox to its first verified account, and leaves the operator’s accounts alone; down() undoes it', async () => {
      const account = async (name: string, user?: { email: string; provider: string; verified: boolean }): Promise<number> => {
        const [company] = await t
          .db('companies')
          .insert({ name, email: user?.email ?? '' })
          .returning('id');
        const id = Number(company.id);
        if (user) await t.db('users').insert({ company_id: id, email: user.email, signup_provider: user.provider, email_verified: user.verified });
        return id;
      };
      const unverifiedFirst = await account('unverified first', { email: 'a.da+old@gmail.com', provider: 'email', verified: false });
      const firstVerified = await account('first verified', { email: 'ada+x@googlemail.com', provider: 'email', verified: true });
      const laterVerified = await account('later verified', { email: 'a.d.a@gmail.com', provider: 'email', verified: true });
      const other = await account('other inbox', { email: 'grace+tag@example.test', provider: 'email', verified: true });
      const cli = await account('cli', { email: 'carol@example.test', provider: 'cli', verified: true });
      const keysOnly = await account('keys only');

      await migrateLatest(t.db);
      const mailboxes = Object.fromEntries((await t.db('companies').select('id', 'signup_mailbox')).map((r) => [Number(r.id), r.signup_mailbox]));
      expect(mailboxes).to.deep.equal({
        [unverifiedFirst]: 'ada@gmail.com',
        [firstVerified]: 'ada@gmail.com',
        [laterVerified]: 'ada@gmail.com',
        [other]: 'grace@example.test',
        [cli]: null,
        [keysOnly]: null,
      });
      const grants = (await t.db('mailbox_free_grants').orderBy('mailbox').select('mailbox', 'company_id')).map((r) => ({ mailbox: r.mailbox, company_id: Number(r.company_id) }));
      expect(grants).to.deep.equal([
        { mailbox: 'ada@gmail.com', company_id: firstVerified },
        { mailbox: 'grace@example.test', company_id: other },
      ]);

      // 012's down(), and before it those of the migrations after it
      await migrateDownTo(t.db, '011-options-from-spec');
      for (const table of ['mailbox_free_grants', 'revoked_sessions', 'auth_limits']) expect(await t.db.schema.hasTable(table), table).to.equal(false);
      expect(await t.db.schema.hasColumn('companies', 'signup_mailbox')).to.equal(false);
    });
  });
