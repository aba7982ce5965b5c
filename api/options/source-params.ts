import { z } from 'zod';
import type { SourceKind } from '../../core/capture-spec.js';
import { custom, type Param, type ReadResult } from './param-kinds.js';

/**
 * Sources (beyond-v1.md part 3): `source_html` or `source_markdown` replaces `url`. Their length limits are
 * settings checked where the request is read (api/screenshots/source-limits.ts: 413 naming the setting),
 * so the parameter itself takes any length; what it refuses is what the record could not keep: Postgres'
 * jsonb holds no NUL and no lone surrogate (a JSON body can carry both).
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const sourceText = (kind: SourceKind): Param<string> =>
  custom(
    z
      .string()
      .describe(
        `the ${kind === 'html' ? 'HTML document' : 'Markdown text'} to render instead of a url (exactly one of url, source_html, source_markdown); in a query string at most SHOTFARM_SOURCE_QUERY_MAX_BYTES, in a POST body at most SHOTFARM_SOURCE_BODY_MAX_BYTES`,
      ),
    false,
    (raw): ReadResult<string> => {
      const s = Array.isArray(raw) && raw.length === 1 && typeof raw[0] === 'string' ? raw[0] : null;
      if (s === null) return { ok: false, messages: ['must be given once'] };
      if (s.trim() === '') return { ok: false, messages: ['must not be empty'] };
      if (s.includes('\u0000')) return { ok: false, messages: ['must not contain NUL characters'] };
      if (LONE_SURROGATE.test(s)) return { ok: false, messages: ['must be well-formed Unicode text (it holds a lone surrogate)'] };
      return { ok: true, value: s };
    },
  );
