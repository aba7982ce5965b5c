// Boot: the routes, and the loop that renders the page of the current hash inside the frame.
import { whenSessionLost } from './api.js';
import { h, replaceChildren } from './dom.js';
import { frame } from './layout.js';
import { match, navigate, pageContext, type Route } from './router.js';
import { restoreSession } from './auth.js';
import { currentUser, isAdmin, type UserSession } from './session.js';
import { loginPage } from './pages/login.js';
import { signupPage } from './pages/signup.js';
import { overviewPage } from './pages/overview.js';
import { screenshotsPage } from './pages/screenshots.js';
import { screenshotDetailPage } from './pages/screenshot-detail.js';
import { createPage } from './pages/create.js';
import { batchesPage } from './pages/batches.js';
import { batchDetailPage } from './pages/batch-detail.js';
import { crawlsPage } from './pages/crawls.js';
import { crawlDetailPage } from './pages/crawl-detail.js';
import { monitorsPage } from './pages/monitors.js';
import { monitorDetailPage } from './pages/monitor-detail.js';
import { appsPage } from './pages/apps.js';
import { keysPage } from './pages/keys.js';
import { billingPage } from './pages/billing.js';
import { adminOverviewPage } from './pages/admin-overview.js';
import { adminNodesPage } from './pages/admin-nodes.js';
import { adminUsersPage } from './pages/admin-users.js';
import { forgotPasswordPage } from './pages/forgot-password.js';
import { resetPasswordPage } from './pages/reset-password.js';
import { verifyEmailPage } from './pages/verify-email.js';

const ROUTES: Route[] = [
  { pattern: '/login', page: loginPage, title: 'Log in', public: true },
  { pattern: '/signup', page: signupPage, title: 'Sign up', public: true },
  { pattern: '/forgot-password', page: forgotPasswordPage, title: 'Reset your password', public: true },
  { pattern: '/reset-password', page: resetPasswordPage, title: 'Choose a new password', open: true },
  { pattern: '/verify-email', page: verifyEmailPage, title: 'Verify your email', open: true },
  { pattern: '/', page: overviewPage, title: 'Overview' },
  { pattern: '/screenshots', page: screenshotsPage, title: 'Screenshots' },
  { pattern: '/screenshots/:id', page: screenshotDetailPage, title: 'Screenshot' },
  { pattern: '/create', page: createPage, title: 'New screenshot' },
  { pattern: '/batches', page: batchesPage, title: 'Batches' },
  { pattern: '/batches/:id', page: batchDetailPage, title: 'Batch' },
  { pattern: '/crawls', page: crawlsPage, title: 'Crawls' },
  { pattern: '/crawls/:id', page: crawlDetailPage, title: 'Crawl' },
  { pattern: '/monitors', page: monitorsPage, title: 'Monitors' },
  { pattern: '/monitors/:id', page: monitorDetailPage, title: 'Monitor' },
  { pattern: '/apps', page: appsPage, title: 'Apps' },
  { pattern: '/keys', page: keysPage, title: 'API keys' },
  { pattern: '/billing', page: billingPage, title: 'Billing' },
  { pattern: '/admin', page: adminOverviewPage, title: 'Admin overview', admin: true },
  { pattern: '/admin/nodes', page: adminNodesPage, title: 'Nodes', admin: true },
  { pattern: '/admin/users', page: adminUsersPage, title: 'Users', admin: true },
];

const root = document.getElementById('app') as HTMLElement;
let leaveCurrent: () => void = () => undefined;
/** Each render has a number: an older one finishing late must not replace a newer page. */
let renderSeq = 0;

/** The session of this page, or (after a reload) of the cookie; null when logged out. */
async function ensureUser(): Promise<UserSession | null> {
  return currentUser() ?? restoreSession();
}

function errorPage(err: unknown): HTMLElement {
  const message = err instanceof Error ? err.message : String(err);
  return h('div', null, h('h1', null, 'Something went wrong'), h('p', { class: 'form-message error', role: 'alert' }, message));
}

async function render(): Promise<void> {
  const seq = ++renderSeq;
  leaveCurrent();
  leaveCurrent = () => undefined;
  const found = match(ROUTES, location.hash);
  if (!found) {
    navigate('#/');
    return;
  }
  const user = await ensureUser().catch(() => null);
  if (seq !== renderSeq) return;
  if (!found.route.public && !found.route.open && !user) {
    navigate('#/login');
    return;
  }
  if (found.route.public && user) {
    navigate('#/');
    return;
  }
  const { ctx, leave } = pageContext(found.params, found.query);
  leaveCurrent = leave;
  let page: Node;
  if (found.route.admin && !isAdmin()) {
    page = h('div', null, h('h1', null, found.route.title), h('p', { role: 'alert' }, 'This page needs the admin role.'));
  } else {
    try {
      page = await found.route.page(ctx);
    } catch (err) {
      page = errorPage(err);
    }
  }
  if (seq !== renderSeq || !ctx.alive()) return;
  document.title = `${found.route.title} · shotfarm`;
  replaceChildren(root, ...frame(page, Boolean(user), () => navigate('#/login')));
}

/**
 * The account emails link to /verify-email?token=… and /reset-password?token=… (the control plane serves
 * this page there): the same route as a hash, at /, so every link inside the dashboard keeps working.
 */
function adoptEmailLink(): void {
  if (location.pathname === '/verify-email' || location.pathname === '/reset-password') {
    history.replaceState(null, '', `/#${location.pathname}${location.search}`);
  }
}

adoptEmailLink();
whenSessionLost(() => navigate('#/login'));
window.addEventListener('hashchange', () => void render());
void render();
