/** The JSON a test page wrote into <pre id="…">, read from a capture's rendered HTML. */
export function readPreJson<T = Record<string, unknown>>(html: string | null, id: string): T {
  if (!html) throw new Error('the capture has no HTML (set html: true)');
  const match = new RegExp(`<pre id="${id}"[^>]*>([\\s\\S]*?)</pre>`).exec(html);
  if (!match) throw new Error(`<pre id="${id}"> not found in the HTML`);
  const text = match[1]!
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  return JSON.parse(text) as T;
}

/** The text of <pre id="…"> (not JSON). */
export function readPreText(html: string | null, id: string): string {
  const match = new RegExp(`<pre id="${id}"[^>]*>([\\s\\S]*?)</pre>`).exec(html ?? '');
  return match?.[1] ?? '';
}
