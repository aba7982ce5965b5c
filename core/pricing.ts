import { z } from 'zod';

/** Credits charged per screenshot: a base price plus extras per costly output. */
export const pricingSchema = z
  .object({
    base: z.number().int().min(0),
    full_page: z.number().int().min(0),
    pdf: z.number().int().min(0),
    video: z.number().int().min(0),
    html: z.number().int().min(0),
    markdown: z.number().int().min(0),
    metadata: z.number().int().min(0),
    extra_shot: z.number().int().min(0),
  })
  .strict();
export type Pricing = z.infer<typeof pricingSchema>;

export const DEFAULT_PRICING: Pricing = { base: 1, full_page: 1, pdf: 1, video: 2, html: 0, markdown: 0, metadata: 0, extra_shot: 1 };

// What each option adds to the price is said by its entry of the option table (api/options/create-params.ts, `cost`).
