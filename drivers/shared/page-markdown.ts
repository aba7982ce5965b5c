import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { MarkdownMode } from '../../core/capture-spec.js';
import { readableMarkdown, type ReadableMarkdown } from '../page-scripts/readable-markdown.js';

/**
 * markdown=1: the page's readable content as Markdown, made in the page (readable-markdown.ts) by
 * - @mozilla/readability 0.6.0 (Apache-2.0): Firefox's reader view, kept by Mozilla; it finds the article;
 * - turndown 7.2.5 (MIT): HTML to Markdown, the converter peers use; its browser build needs no parser;
 * - @joplin/turndown-plugin-gfm 1.0.68 (MIT): the GFM plugin (tables, strikethrough, task lists, code
 *   languages) as Joplin keeps it up; the original turndown-plugin-gfm was last published in 2018, and its
 *   tables need a header row (Joplin's take a table's first row as its header).
 *
 * Why in the page and not in the agent on the serialised HTML: the live DOM knows what is rendered (hidden
 * menus and dialogs stay out), what open shadow roots and slots show, and every resolved URL; a serialised
 * document knows none of that, and the agent would need a DOM of its own (jsdom) for Readability, whose parse
 * of a real page costs the agent's CPU (the node's scarce one: browsers share it) instead of the page's
 * renderer, which already holds the DOM. The three libraries are plain CommonJS files with no imports: each
 * runs in a function that gives it `module` and `exports`, so the page's own globals are never touched.
 * Cost per capture: `make bench-extract` (docs/performance.md).
 */
const require = createRequire(import.meta.url);

function moduleSource(file: string): string {
  return `(function () { var module = { exports: {} }; var exports = module.exports; (function (module, exports) {\n${readFileSync(file, 'utf8')}\n})(module, exports); return module.exports; })()`;
}

/** The page function: the libraries' sources then readableMarkdown, built once per process (~130 kB). */
let assembled: ((mode: MarkdownMode) => ReadableMarkdown) | null = null;

function assemble(): (mode: MarkdownMode) => ReadableMarkdown {
  const readability = require.resolve('@mozilla/readability/Readability.js');
  // turndown's "browser" build uses the page's DOMParser; its main build brings a DOM of its own.
  const turndown = join(dirname(require.resolve('turndown')), 'turndown.browser.cjs.js');
  const gfm = require.resolve('@joplin/turndown-plugin-gfm');
  const body = [
    `var Readability = ${moduleSource(readability)};`,
    `var Turndown = ${moduleSource(turndown)};`,
    `var gfm = ${moduleSource(gfm)}.gfm;`,
    `return (${readableMarkdown.toString()})(mode, Readability, Turndown, gfm);`,
  ].join('\n');
  // A function object, as the drivers' evaluate takes page functions: only its source is sent to the page, it is
  // never called here, and what it holds is the installed packages' own files.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function('mode', body) as (mode: MarkdownMode) => ReadableMarkdown;
}

/** The page function that makes the Markdown; evaluate it with the spec's mode. */
export function pageMarkdownFunction(): (mode: MarkdownMode) => ReadableMarkdown {
  assembled ??= assemble();
  return assembled;
}
