import { z } from 'zod';

/** A provider's price ids for the two billing cycles (e.g. a card processor's plan or price ids). */
const providerIdsSchema = z.object({ monthly: z.string().min(1).max(200), yearly: z.string().min(1).max(200) }).strict();

/**
 * One plan, in the spec's "Plan definition" shape. Plan ids end up in ledger reasons and URLs, so they
 * are short slugs. Prices are in US dollars with at most cents; `monthly_screenshots` is granted as
 * credits at the start of every period of a subscription.
 */
export const planSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'must be 1 to 64 lowercase letters, digits, _ or -, starting with a letter or digit'),
    name: z.string().min(1).max(200),
    // Cents are the smallest unit a receipt shows; a million dollars a month is beyond any plan.
    price_usd: z
      .number()
      .min(0)
      .max(1_000_000)
      .refine((p) => Math.abs(p * 100 - Math.round(p * 100)) < 1e-6, 'must have at most two decimals'),
    // A billion screenshots a month is far above what one installation captures; it bounds typos.
    monthly_screenshots: z.number().int().min(0).max(1_000_000_000),
    features: z.array(z.string().min(1).max(500)).max(100),
    public: z.boolean(),
    payment_plan_ids: providerIdsSchema.optional(),
    addons: z
      .array(z.object({ id: z.string().min(1).max(100), quantity: z.number().int().min(0), payment_addon_ids: providerIdsSchema }).strict())
      .max(50)
      .optional(),
  })
  .strict();
export type Plan = z.infer<typeof planSchema>;

/** A plans file: a JSON array of plans with distinct ids. */
export const plansSchema = z
  .array(planSchema)
  .min(1, 'must list at least one plan')
  .superRefine((plans, ctx) => {
    const seen = new Set<string>();
    plans.forEach((plan, i) => {
      if (seen.has(plan.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `"${plan.id}" is listed twice` });
      seen.add(plan.id);
    });
  });

/** The price of one period of a plan in cents (receipts and processors count in cents). */
export function planPriceCents(plan: Plan): number {
  return Math.round(plan.price_usd * 100);
}

/**
 * Reads a plans file's text. Returns the plans, or the problems found, each naming where it is
 * (`3.price_usd: ...`) so the start-up error tells the operator what to fix.
 */
export function parsePlans(text: string): { ok: true; plans: Plan[] } | { ok: false; problems: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, problems: [`not valid JSON (${(err as Error).message})`] };
  }
  const parsed = plansSchema.safeParse(json);
  if (parsed.success) return { ok: true, plans: parsed.data };
  return { ok: false, problems: parsed.error.issues.map((i) => `${i.path.length > 0 ? `${i.path.join('.')}: ` : ''}${i.message}`) };
}
