/**
 * Adds a classic <script> to the page, so it runs in the page's own world exactly as the site's scripts
 * do: with `url` it resolves when the script has loaded and run (rejects when it fails to load), with
 * `content` it runs at once. What Playwright's page.addScriptTag does, for drivers that can only run
 * a function in the page (Selenium executeScript). Runs in the page; self-contained.
 */
export function addScriptTag(source: { url?: string; content?: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    if (source.url !== undefined) {
      script.src = source.url;
      script.onload = () => resolve();
      script.onerror = () => reject(new Error(`Failed to load script ${source.url}`));
    } else {
      script.textContent = source.content ?? '';
    }
    (document.head ?? document.documentElement).appendChild(script);
    if (source.url === undefined) resolve();
  });
}
