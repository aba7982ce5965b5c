/**
 * The URL a page shows, or '' when it is not a web page: after a failed navigation Chromium shows
 * chrome-error://chromewebdata/ and nothing was loaded (the record's final_url is then empty).
 */
export function webUrlOrEmpty(url: string): string {
  return /^https?:\/\//i.test(url) ? url : '';
}
