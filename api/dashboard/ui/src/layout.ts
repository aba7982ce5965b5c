// The frame around every page: navigation (admin links for admins), who is logged in, log out, and a
// notice carried over from the previous page (the API key shown once after signup, for example).
import { h } from './dom.js';
import { logOut, stopActing } from './auth.js';
import { currentUser, impersonating, isAdmin } from './session.js';

const USER_LINKS: [string, string][] = [
  ['#/', 'Overview'],
  ['#/screenshots', 'Screenshots'],
  ['#/create', 'New screenshot'],
  ['#/batches', 'Batches'],
  ['#/crawls', 'Crawls'],
  ['#/monitors', 'Monitors'],
  ['#/apps', 'Apps'],
  ['#/keys', 'API keys'],
  ['#/billing', 'Billing'],
];
const ADMIN_LINKS: [string, string][] = [
  ['#/admin', 'Admin overview'],
  ['#/admin/nodes', 'Nodes'],
  ['#/admin/users', 'Users'],
];

let pendingNotice: { text: string; secrets: string[] } | null = null;

/** A notice for the next page shown (after a redirect). Each secret (a key and its signing secret) is shown in a copyable box. */
export function flash(text: string, ...secrets: string[]): void {
  pendingNotice = { text, secrets };
}

function noticeBox(): HTMLElement | null {
  const notice = pendingNotice;
  pendingNotice = null;
  if (!notice) return null;
  return h(
    'div',
    { class: 'notice', role: 'status' },
    h('p', null, notice.text),
    notice.secrets.map((secret) => h('code', { class: 'secret' }, secret)),
  );
}

/** The link of the section the hash is in: the longest href the hash starts with (#/admin/nodes is Nodes, not Admin overview). */
function activeHref(currentHash: string, links: [string, string][]): string | null {
  const path = (currentHash || '#/').split('?')[0] ?? '#/';
  const within = links.map(([href]) => href).filter((href) => path === href || (href !== '#/' && path.startsWith(`${href}/`)));
  return within.sort((a, b) => b.length - a.length)[0] ?? null;
}

function nav(currentHash: string): HTMLElement {
  const active = activeHref(currentHash, [...USER_LINKS, ...ADMIN_LINKS]);
  const link = ([href, label]: [string, string]): HTMLElement => h('li', null, h('a', { href, 'aria-current': href === active ? 'page' : null }, label));
  return h('nav', { class: 'sidenav', 'aria-label': 'Main' }, h('ul', null, USER_LINKS.map(link)), isAdmin() ? h('ul', { class: 'admin-nav', 'aria-label': 'Admin' }, ADMIN_LINKS.map(link)) : null);
}

function userBar(onLogout: () => void): HTMLElement {
  const user = currentUser();
  const acting = impersonating();
  return h(
    'div',
    { class: 'userbar' },
    acting ? h('span', { class: 'badge badge-error' }, 'acting as this user') : null,
    h('span', { class: 'user-email' }, user?.email ?? ''),
    acting
      ? h(
          'button',
          {
            type: 'button',
            onclick: () => {
              void stopActing()
                .finally(onLogout)
                .catch(() => undefined);
            },
          },
          'Back to my account',
        )
      : h(
          'button',
          {
            type: 'button',
            onclick: () => {
              void logOut()
                .finally(onLogout)
                .catch(() => undefined);
            },
          },
          'Log out',
        ),
  );
}

/** The whole screen for a page: header and navigation when logged in, the page in <main>. */
export function frame(page: Node, loggedIn: boolean, onLogout: () => void): HTMLElement[] {
  const header = h('header', { class: 'top' }, h('a', { class: 'brand', href: '#/' }, 'shotfarm'), loggedIn ? userBar(onLogout) : null);
  const body = h('div', { class: loggedIn ? 'layout' : 'layout layout-public' }, loggedIn ? nav(location.hash) : null, h('main', { id: 'main' }, noticeBox(), page));
  return [header, body];
}
