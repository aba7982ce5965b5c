/**
 * Gmail delivers `j.smith`, `jsmith` and `J.Smith` to one inbox, and googlemail.com is the same service.
 * No other provider is known here to ignore dots: at a company's own domain `j.smith` and `jsmith` may be
 * two people, so dots count everywhere else.
 */
const DOTLESS_DOMAINS: Readonly<Record<string, string>> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * The inbox an email address reaches, as the free grants (signup credits, a free plan) count it: once per
 * inbox, however the address is typed. Lower case (emailParam already folds the whole address); a `+tag`
 * dropped from the local part on every domain, since Gmail, Outlook, iCloud, Fastmail, Proton and most
 * hosted mail deliver `name+anything` to `name` (a real mailbox whose name has a `+` in it is rare, and
 * the only cost of matching it wrongly is a second account without free credits); dots dropped only where
 * the provider ignores them (DOTLESS_DOMAINS). Other sub-addressing schemes (Yahoo's `-`) are left alone:
 * `-` is common in real names.
 */
export function mailboxOf(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 1) return lower;
  const domain = lower.slice(at + 1);
  let local = lower.slice(0, at);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  const dotless = DOTLESS_DOMAINS[domain];
  return dotless === undefined ? `${local}@${domain}` : `${local.replace(/\./g, '')}@${dotless}`;
}
