/**
 * The stylesheet of a rendered source_markdown: a readable column of system fonts, GitHub-like tables, code
 * and quotes, nothing fetched (no web font, no image) so that a Markdown capture needs no network at all.
 * A TypeScript string rather than a .css file: tsc ships it in dist/ with no copy rule in the Dockerfile or
 * package.json's files.
 */
export const MARKDOWN_STYLE = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
html { background: #fff; }
body { margin: 0; padding: 40px 24px; color: #1f2328; font: 16px/1.6 -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; }
main { max-width: 820px; margin: 0 auto; }
h1, h2, h3, h4, h5, h6 { margin: 1.4em 0 0.6em; line-height: 1.25; font-weight: 600; }
h1 { font-size: 2em; padding-bottom: 0.3em; border-bottom: 1px solid #d1d9e0; }
h2 { font-size: 1.5em; padding-bottom: 0.3em; border-bottom: 1px solid #d1d9e0; }
h3 { font-size: 1.25em; }
main > :first-child { margin-top: 0; }
p, ul, ol, dl, table, pre, blockquote { margin: 0 0 1em; }
a { color: #0969da; text-decoration: underline; text-underline-offset: 0.2em; }
img { max-width: 100%; }
hr { height: 2px; margin: 1.5em 0; border: 0; background: #d1d9e0; }
blockquote { padding: 0 1em; color: #59636e; border-left: 0.25em solid #d1d9e0; }
code, pre { font: 85%/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; }
code { padding: 0.2em 0.4em; border-radius: 6px; background: #eff1f3; }
pre { padding: 16px; overflow: auto; border-radius: 6px; background: #f6f8fa; }
pre code { padding: 0; background: none; }
table { border-collapse: collapse; display: block; overflow: auto; }
th, td { padding: 6px 13px; border: 1px solid #d1d9e0; }
th { font-weight: 600; background: #f6f8fa; }
tr:nth-child(2n) td { background: #f6f8fa; }
li + li { margin-top: 0.25em; }
input[type="checkbox"] { margin-right: 0.4em; }
`;
