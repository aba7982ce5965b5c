import type { Plan } from './plan.js';

/**
 * The plans an installation offers when SHOTFARM_PLANS_FILE is not set. They are a starting point:
 * an operator who sells screenshots writes their own file (same shape, a JSON array) with their
 * prices. Credits are one per basic screenshot (SHOTFARM_PRICING), so `monthly_screenshots` is the
 * number of credits each period grants.
 */
export const DEFAULT_PLANS: readonly Plan[] = [
  {
    id: 'free',
    name: 'Free',
    price_usd: 0,
    monthly_screenshots: 100,
    public: true,
    features: ['100 screenshots a month', 'All browsers and devices', 'Batches and crawls'],
  },
  {
    id: 'starter',
    name: 'Starter',
    price_usd: 19,
    monthly_screenshots: 5_000,
    public: true,
    features: ['5,000 screenshots a month', 'All browsers and devices', 'Batches and crawls', 'Apps (webhook, S3, Slack, Drive, Dropbox, OneDrive)'],
  },
  {
    id: 'pro',
    name: 'Pro',
    price_usd: 99,
    monthly_screenshots: 50_000,
    public: true,
    features: ['50,000 screenshots a month', 'All browsers and devices', 'Batches and crawls', 'Apps', 'Video and PDF outputs'],
  },
  // Not listed to users: an operator (admin) puts an account on it by arrangement.
  {
    id: 'enterprise',
    name: 'Enterprise',
    price_usd: 499,
    monthly_screenshots: 500_000,
    public: false,
    features: ['500,000 screenshots a month', 'Everything in Pro', 'Invoiced monthly'],
  },
];
