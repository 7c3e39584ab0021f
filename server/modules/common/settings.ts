/**
 * Site settings operators change in the console (contract/admin.ts SITE_SETTINGS), stored as
 * `site_config` rows over code defaults: title, logo, deposit hours (Asia/Taipei HH:MM, weekdays
 * only, closed on exchange holidays; product-spec §9) and withdrawal limits (TWD minor units).
 * common/config serves them to the client; the funds handlers enforce them.
 */
import { SITE_SETTINGS } from '../../../contract/admin';
import {
  DEPOSIT_HOURS_DEFAULT,
  WITHDRAW_MAX_MINOR,
  WITHDRAW_MIN_MINOR,
  type DepositHours,
} from '../../../contract/constants';
import { hhmmToMinutes } from '../../../contract/deposit-hours';
import type { Db, Tx } from '../../db/client';
import { siteConfig } from '../../db/schema';

/** The typed settings the server enforces. */
export interface SiteSettings {
  title: string;
  logo: string;
  depositHours: DepositHours;
  withdrawMinMinor: number;
  withdrawMaxMinor: number;
}

/** The names of the operator-editable settings (contract/admin.ts SITE_SETTINGS). */
export const SETTING_NAMES = SITE_SETTINGS;
export type SettingName = (typeof SITE_SETTINGS)[number];

/** Defaults as {name, value} strings (the same names as the stored rows). */
export const SETTING_DEFAULTS: Record<string, string> = {
  title: 'TW Trade',
  logo: '/logo.svg',
  depositOpen: DEPOSIT_HOURS_DEFAULT.open,
  depositClose: DEPOSIT_HOURS_DEFAULT.close,
  depositWeekdaysOnly: String(DEPOSIT_HOURS_DEFAULT.weekdaysOnly),
  depositHolidaysClosed: String(DEPOSIT_HOURS_DEFAULT.holidaysClosed),
  withdrawMinMinor: String(WITHDRAW_MIN_MINOR),
  withdrawMaxMinor: String(WITHDRAW_MAX_MINOR),
};

/** Reads the stored rows over the defaults. Values were validated when saved (admin/saveConfig). */
export async function siteSettings(db: Db | Tx): Promise<SiteSettings> {
  const rows = await db.select().from(siteConfig);
  const v = new Map(Object.entries(SETTING_DEFAULTS));
  for (const r of rows) v.set(r.name, r.value);
  const get = (k: string) => v.get(k)!;
  return {
    title: get('title'),
    logo: get('logo'),
    depositHours: {
      open: get('depositOpen'),
      close: get('depositClose'),
      weekdaysOnly: get('depositWeekdaysOnly') === 'true',
      holidaysClosed: get('depositHolidaysClosed') === 'true',
    },
    withdrawMinMinor: Number(get('withdrawMinMinor')),
    withdrawMaxMinor: Number(get('withdrawMaxMinor')),
  };
}

/** Every site setting as {name, value}: the stored rows over the defaults, in SETTING_DEFAULTS order. */
export async function settingItems(db: Db | Tx): Promise<Array<{ name: SettingName; value: string }>> {
  const rows = await db.select().from(siteConfig);
  const stored = new Map(rows.map((r) => [r.name, r.value]));
  return SETTING_NAMES.map((name) => ({ name, value: stored.get(name) ?? SETTING_DEFAULTS[name]! }));
}

/** HH:MM from 00:00 to 24:00 → minutes after midnight; null when malformed (contract/deposit-hours.ts owns the format). */
function hhmmOrNull(value: string): number | null {
  try {
    return hhmmToMinutes(value);
  } catch {
    return null;
  }
}

const POSITIVE_INT_RE = /^[1-9]\d*$/;
const positiveSafeInt = (v: string) => POSITIVE_INT_RE.test(v) && Number.isSafeInteger(Number(v));

/**
 * Whether `value` is acceptable for the setting `name`, given the other current values
 * (`current`, by name): deposit hours HH:MM between 00:00 and 24:00 with open before close;
 * booleans 'true' or 'false'; withdrawal limits positive integers (minor units) within
 * Number.MAX_SAFE_INTEGER with min ≤ max; title 1–60 characters without control characters;
 * logo a site path ('/x', never '//host' or a backslash, which browsers read as another host) or
 * an https URL, without white space.
 */
export function isValidSetting(
  name: SettingName,
  value: string,
  current: ReadonlyMap<string, string>,
): boolean {
  switch (name) {
    case 'depositOpen':
    case 'depositClose': {
      const mins = hhmmOrNull(value);
      if (mins === null) return false;
      const other = hhmmOrNull(current.get(name === 'depositOpen' ? 'depositClose' : 'depositOpen') ?? '');
      if (other === null) return true;
      return name === 'depositOpen' ? mins < other : other < mins;
    }
    case 'depositWeekdaysOnly':
    case 'depositHolidaysClosed':
      return value === 'true' || value === 'false';
    case 'withdrawMinMinor':
    case 'withdrawMaxMinor': {
      if (!positiveSafeInt(value)) return false;
      const otherText =
        current.get(name === 'withdrawMinMinor' ? 'withdrawMaxMinor' : 'withdrawMinMinor') ?? '';
      if (!positiveSafeInt(otherText)) return true;
      const [min, max] =
        name === 'withdrawMinMinor' ? [Number(value), Number(otherText)] : [Number(otherText), Number(value)];
      return min <= max;
    }
    case 'title': {
      const chars = [...value].length;
      // eslint-disable-next-line no-control-regex
      return chars >= 1 && chars <= 60 && !/[\u0000-\u001f\u007f]/.test(value);
    }
    case 'logo': {
      if (/[\s\\]/.test(value) || value.length > 300) return false;
      if (value.startsWith('/')) return !value.startsWith('//');
      try {
        const url = new URL(value);
        return url.protocol === 'https:' && url.hostname !== '';
      } catch {
        return false;
      }
    }
  }
}
