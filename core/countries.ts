import ct from 'countries-and-timezones';
import { continents, countries } from 'countries-list';

/** What a country code resolves to when the request does not say otherwise. */
export interface CountryDefaults {
  country: string;
  region: string;
  language: string;
  timezone: string;
}

/**
 * Where the dataset lists several time zones for a country and none is named after its capital, the
 * zone most of its people live in. Also the few codes the time-zone dataset does not cover.
 */
const PRIMARY_ZONE: Record<string, string> = {
  AC: 'Atlantic/St_Helena',
  AQ: 'UTC',
  AU: 'Australia/Sydney',
  BR: 'America/Sao_Paulo',
  BV: 'UTC',
  CA: 'America/Toronto',
  CD: 'Africa/Kinshasa',
  CN: 'Asia/Shanghai',
  EC: 'America/Guayaquil',
  FM: 'Pacific/Pohnpei',
  KI: 'Pacific/Tarawa',
  KZ: 'Asia/Almaty',
  MH: 'Pacific/Majuro',
  MN: 'Asia/Ulaanbaatar',
  MY: 'Asia/Kuala_Lumpur',
  NZ: 'Pacific/Auckland',
  PF: 'Pacific/Tahiti',
  PS: 'Asia/Hebron',
  TA: 'Atlantic/St_Helena',
  TF: 'Indian/Kerguelen',
  UM: 'Pacific/Wake',
  US: 'America/New_York',
  VN: 'Asia/Ho_Chi_Minh',
  XK: 'Europe/Belgrade',
};

const asciiName = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[ .'-]/g, '_')
    .toLowerCase();

function primaryZone(code: string, capital: string): string {
  const override = PRIMARY_ZONE[code];
  if (override) return override;
  const zones = (ct.getCountry as (c: string) => { timezones: string[] } | null)(code)?.timezones ?? [];
  const capitalZone = zones.find((z) => asciiName(z.split('/').pop() ?? '') === asciiName(capital));
  return capitalZone ?? zones[0] ?? 'UTC';
}

const cache = new Map<string, CountryDefaults>();

/** A language as spoken in a country (fr in ca → fr-CA); a language that names its region already stays as it is. */
export function localeIn(language: string, country: string): string {
  return language.includes('-') ? language : `${language}-${country.toUpperCase()}`;
}

/** Defaults for a lowercase ISO 3166-1 alpha-2 code, or null when the code is not a country. */
export function countryDefaults(code: string): CountryDefaults | null {
  const hit = cache.get(code);
  if (hit) return hit;
  const upper = code.toUpperCase();
  const data = (countries as Record<string, (typeof countries)['FR'] | undefined>)[upper];
  if (!/^[a-z]{2}$/.test(code) || !data) return null;
  const defaults: CountryDefaults = {
    country: code,
    region: continents[data.continent],
    // The country's first official language, written as a locale of that country (fr → fr-FR).
    language: localeIn(data.languages[0] ?? 'en', code),
    timezone: primaryZone(upper, data.capital),
  };
  cache.set(code, defaults);
  return defaults;
}

/** Whether a name is an IANA time zone this runtime knows. */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
