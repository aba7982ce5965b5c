/** CSS pixels per unit (CSS fixes 1in = 96px; cm, mm and pt follow from the inch). */
const PX_PER_UNIT: Record<string, number> = { px: 1, in: 96, cm: 96 / 2.54, mm: 96 / 25.4, pt: 96 / 72, pc: 16 };

/** A CSS length such as `10px`, `5mm`, `0.5in` (a bare number is pixels) in CSS pixels. */
export function cssLengthToPx(length: string): number {
  const match = /^\s*(-?\d+(?:\.\d+)?)\s*(px|in|cm|mm|pt|pc)?\s*$/i.exec(length);
  if (!match) throw new Error(`not a CSS length: ${length}`);
  const unit = (match[2] ?? 'px').toLowerCase();
  return Number(match[1]) * (PX_PER_UNIT[unit] ?? 1);
}
