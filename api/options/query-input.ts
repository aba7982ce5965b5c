/**
 * Decodes a query string the way clients of the original service send it:
 * - repeated keys keep every value in order: `url=a&url=b` → { url: ['a', 'b'] };
 * - bracket notation becomes nested values: `step[0][command]=click` → { step: [{ command: ['click'] }] }.
 * Leaves are always string arrays; the parameter table decides what a leaf may be.
 */
export type QueryValue = string[] | QueryTree | QueryValue[];
export interface QueryTree {
  [key: string]: QueryValue;
}

/** Bracket nesting deeper than this, or list indexes above MAX_INDEX, are refused: no client needs them. */
const MAX_DEPTH = 4;
const MAX_INDEX = 99;

export class QueryShapeError extends Error {
  constructor(
    public readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const BRACKET_KEY = /^([^[\]]+)((?:\[[^[\]]*\])+)$/;

/**
 * Every object built from a query has no prototype: keys are the client's text, and `__proto__[x]=1`
 * on a plain object would write into Object.prototype (every object of the process would then carry
 * `x`, a request's parameters included), while `constructor=1` would find Object's own constructor.
 */
const tree = (): QueryTree => Object.create(null) as QueryTree;

export function parseQuery(querystring: string): QueryTree {
  const root: QueryTree = tree();
  for (const [rawKey, value] of new URLSearchParams(querystring)) {
    const match = BRACKET_KEY.exec(rawKey);
    if (!match) {
      const existing = root[rawKey];
      if (existing === undefined) root[rawKey] = [value];
      else if (isLeaf(existing)) existing.push(value);
      else throw new QueryShapeError(rawKey, 'is given both as a value and in bracket notation');
      continue;
    }
    const base = match[1] as string;
    const segments = [...(match[2] as string).matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] as string);
    if (segments.length > MAX_DEPTH) throw new QueryShapeError(base, `bracket notation nests deeper than ${MAX_DEPTH} levels`);
    insert(root, base, segments, value);
  }
  return finalise(root) as QueryTree;
}

function isLeaf(v: QueryValue | undefined): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/** Walks/creates intermediate objects (keyed by segment; arrays come later in finalise). */
function insert(root: QueryTree, base: string, segments: string[], value: string): void {
  let node: QueryTree = root;
  let key = base;
  for (const segment of segments) {
    if (/^\d+$/.test(segment) && Number(segment) > MAX_INDEX) throw new QueryShapeError(base, `list index ${segment} is above ${MAX_INDEX}`);
    let child = node[key];
    if (child === undefined) {
      child = tree();
      node[key] = child;
    } else if (Array.isArray(child)) {
      throw new QueryShapeError(base, 'is given both as a value and in bracket notation');
    }
    node = child as QueryTree;
    // `a[]=x` appends: give each such value its own index.
    key = segment === '' ? String(Object.keys(node).length) : segment;
  }
  const existing = node[key];
  if (existing === undefined) node[key] = [value];
  else if (isLeaf(existing)) existing.push(value);
  else throw new QueryShapeError(base, 'is given both as a value and in bracket notation');
}

/** Objects whose keys are all list indexes become arrays, ordered by index. */
function finalise(v: QueryValue): QueryValue {
  if (Array.isArray(v)) return v;
  const keys = Object.keys(v);
  const out: QueryTree = tree();
  for (const k of keys) out[k] = finalise(v[k] as QueryValue);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((k) => out[k] as QueryValue);
  }
  return out;
}
