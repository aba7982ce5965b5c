import { expect } from 'chai';
import { mailboxOf } from '../../api/accounts/mailbox.js';

describe('mailboxOf: the inbox an address reaches, as free grants count it', () => {
  it('folds case and drops a +tag on every domain', () => {
    expect(mailboxOf('Ada+Shots@Example.COM')).to.equal('ada@example.com');
    expect(mailboxOf(' ada+a+b@example.com ')).to.equal('ada@example.com');
  });

  it('drops dots only where the provider ignores them (Gmail and googlemail.com, one service)', () => {
    expect(mailboxOf('A.D.A+x@gmail.com')).to.equal('ada@gmail.com');
    expect(mailboxOf('ada@googlemail.com')).to.equal('ada@gmail.com');
    expect(mailboxOf('j.smith@corp.example')).to.equal('j.smith@corp.example');
    expect(mailboxOf('j.smith@gmail.com.example')).to.equal('j.smith@gmail.com.example');
  });

  it('keeps what is no tag: a leading +, a hyphen (a real name more often than a Yahoo tag)', () => {
    expect(mailboxOf('+ada@example.com')).to.equal('+ada@example.com');
    expect(mailboxOf('ada-lovelace@yahoo.com')).to.equal('ada-lovelace@yahoo.com');
  });
});
