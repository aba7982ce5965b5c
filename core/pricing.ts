import { z } from 'zod';

/** Credits charged per screenshot: a base price plus extras per costly output. */
export const pricingSchema = z.object({
  base: z.number().int().min(0),
  full_page: z.number().int().min(0),
  pdf: z.number().int().min(0),
  video: z.number().int().min(0),
  html: z.number().int().min(0),
  extra_shot: z.number().int().min(0),
}).strict();
export type Pricing = z.infer<typeof pricingSchema>;

export const DEFAULT_PRICING: Pricing = { base: 1, full_page: 1, pdf: 1, video: 2, html: 0, extra_shot: 1 };

export interface PricedOptions { size: 'screen' | 'page'; pdf: boolean; video: boolean; html: boolean; shots: number }

/** The cost in credits of one screenshot record with these options. */
export function screenshotCost(p: Pricing, o: PricedOptions): number {
  return p.base
    + (o.size === 'page' ? p.full_page : 0)
    + (o.pdf ? p.pdf : 0)
    + (o.video ? p.video : 0)
    + (o.html ? p.html : 0)
    + Math.max(0, o.shots - 1) * p.extra_shot;
}
