/**
 * Decodes the HTML character references a page's text is likely to hold, without a DOM.
 *
 * Decisions:
 *  - Numeric references (`&#233;`, `&#xE9;`) are all decoded; NUL, surrogates and code points past
 *    U+10FFFF become U+FFFD, as browsers do. The C1 range 0x80–0x9F is read as Windows-1252 (`&#146;` is
 *    a right quote), as browsers do.
 *  - Named references: the common punctuation and symbols listed in NAMED, and every accented letter
 *    spelled `&<letter><accent>;` (`&eacute;`, `&Uuml;`, `&ntilde;`, `&ccedil;`, `&aring;`…), built from
 *    the letter and a combining mark instead of a 250-line table. An unknown name stays as written.
 *  - The semicolon is required except for the few legacy names browsers accept without it (`&amp`, `&lt`,
 *    `&gt`, `&quot`, `&nbsp`, `&copy`, `&reg`): `&copy2024` in a footer still decodes.
 */

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  ensp: '\u2002',
  emsp: '\u2003',
  thinsp: '\u2009',
  shy: '\u00ad',
  zwj: '\u200d',
  zwnj: '\u200c',
  lrm: '\u200e',
  rlm: '\u200f',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  minus: '−',
  lsquo: '‘',
  rsquo: '’',
  sbquo: '‚',
  ldquo: '“',
  rdquo: '”',
  bdquo: '„',
  laquo: '«',
  raquo: '»',
  lsaquo: '‹',
  rsaquo: '›',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  curren: '¤',
  dollar: '$',
  deg: '°',
  middot: '·',
  bull: '•',
  times: '×',
  divide: '÷',
  plusmn: '±',
  frac12: '½',
  frac14: '¼',
  frac34: '¾',
  sup1: '¹',
  sup2: '²',
  sup3: '³',
  micro: 'µ',
  para: '¶',
  sect: '§',
  iexcl: '¡',
  iquest: '¿',
  ordf: 'ª',
  ordm: 'º',
  szlig: 'ß',
  aelig: 'æ',
  AElig: 'Æ',
  oelig: 'œ',
  OElig: 'Œ',
  oslash: 'ø',
  Oslash: 'Ø',
  eth: 'ð',
  ETH: 'Ð',
  thorn: 'þ',
  THORN: 'Þ',
  num: '#',
  percnt: '%',
  ast: '*',
  commat: '@',
  lowbar: '_',
  verbar: '|',
  colon: ':',
  comma: ',',
  period: '.',
  excl: '!',
  quest: '?',
  larr: '←',
  rarr: '→',
  uarr: '↑',
  darr: '↓',
  hearts: '♥',
  star: '☆',
  check: '✓',
};

/** The accent suffixes of the letter entities, as combining marks (NFC composes them with the letter). */
const ACCENTS: Record<string, string> = { acute: '\u0301', grave: '\u0300', circ: '\u0302', uml: '\u0308', tilde: '\u0303', cedil: '\u0327', ring: '\u030a', caron: '\u030c' };

/** Names browsers also decode without the semicolon, even followed by letters or digits (`&copy2024`). */
const LEGACY_NO_SEMICOLON = ['nbsp', 'quot', 'copy', 'amp', 'reg', 'lt', 'gt'];

/** Windows-1252 for the C1 code points (what browsers show for `&#128;`…`&#159;`). */
const WINDOWS_1252: Record<number, number> = {
  0x80: 0x20ac,
  0x82: 0x201a,
  0x83: 0x0192,
  0x84: 0x201e,
  0x85: 0x2026,
  0x86: 0x2020,
  0x87: 0x2021,
  0x88: 0x02c6,
  0x89: 0x2030,
  0x8a: 0x0160,
  0x8b: 0x2039,
  0x8c: 0x0152,
  0x8e: 0x017d,
  0x91: 0x2018,
  0x92: 0x2019,
  0x93: 0x201c,
  0x94: 0x201d,
  0x95: 0x2022,
  0x96: 0x2013,
  0x97: 0x2014,
  0x98: 0x02dc,
  0x99: 0x2122,
  0x9a: 0x0161,
  0x9b: 0x203a,
  0x9c: 0x0153,
  0x9e: 0x017e,
  0x9f: 0x0178,
};

const REFERENCE = /&(?:#(\d{1,8})|#[xX]([0-9a-fA-F]{1,7})|([A-Za-z][A-Za-z0-9]{0,31}))(;?)/g;
const LETTER_ENTITY = /^([A-Za-z])(acute|grave|circ|uml|tilde|cedil|ring|caron)$/;

function fromCodePoint(code: number): string {
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(WINDOWS_1252[code] ?? code);
}

function named(name: string): string | undefined {
  const direct = NAMED[name] ?? (/^(AMP|LT|GT|QUOT)$/.test(name) ? NAMED[name.toLowerCase()] : undefined);
  if (direct !== undefined) return direct;
  const letter = LETTER_ENTITY.exec(name);
  if (letter) return `${letter[1]}${ACCENTS[letter[2] as string]}`.normalize('NFC');
  return undefined;
}

/** The text with its character references decoded (see the decisions above). */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(REFERENCE, (whole, dec: string | undefined, hex: string | undefined, name: string | undefined, semicolon: string) => {
    if (dec !== undefined) return fromCodePoint(Number.parseInt(dec, 10));
    if (hex !== undefined) return fromCodePoint(Number.parseInt(hex, 16));
    const word = name as string;
    if (semicolon === ';') return named(word) ?? whole;
    const legacy = LEGACY_NO_SEMICOLON.find((n) => word.startsWith(n));
    return legacy === undefined ? whole : `${NAMED[legacy] as string}${word.slice(legacy.length)}`;
  });
}
