/**
 * Taiwan identity numbers, zod-free so the phone bundle can check them before sending.
 *
 * National ID (國民身分證統一編號): a letter (the issuing region), 1 or 2 (sex), 7 digits and a
 * check digit. Resident certificates (居留證): the 2021 format is a letter, 8 or 9, 7 digits and
 * a check digit (same algorithm); the older format is two letters (region, then A–D) and 8 digits,
 * where the second letter counts as the last digit of its region code.
 * Check: the region letter becomes two digits (A=10 … Z=33, with I=34, O=35, W=32, X=30, Y=31,
 * Z=33); weights 1, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1 over the 11 digits; the sum is a multiple of 10.
 * Source: Ministry of the Interior, ID number coding rules; National Immigration Agency, "新式統一證號".
 */
const LETTER_CODES: Record<string, number> = {
  A: 10,
  B: 11,
  C: 12,
  D: 13,
  E: 14,
  F: 15,
  G: 16,
  H: 17,
  I: 34,
  J: 18,
  K: 19,
  L: 20,
  M: 21,
  N: 22,
  O: 35,
  P: 23,
  Q: 24,
  R: 25,
  S: 26,
  T: 27,
  U: 28,
  V: 29,
  W: 32,
  X: 30,
  Y: 31,
  Z: 33,
};
const WEIGHTS = [1, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1];

function checksumOk(digits: number[]): boolean {
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += digits[i]! * WEIGHTS[i]!;
  return sum % 10 === 0;
}

/** True for a valid national ID or resident certificate number (upper case, no spaces). */
export function isValidTaiwanId(value: string): boolean {
  const s = value.toUpperCase();
  const region = LETTER_CODES[s[0] ?? ''];
  if (region === undefined) return false;
  const head = [Math.floor(region / 10), region % 10];
  if (/^[A-Z][1289]\d{8}$/.test(s)) {
    return checksumOk([...head, ...s.slice(1).split('').map(Number)]);
  }
  if (/^[A-Z][A-D]\d{8}$/.test(s)) {
    const second = LETTER_CODES[s[1]!]! % 10;
    return checksumOk([...head, second, ...s.slice(2).split('').map(Number)]);
  }
  return false;
}

/** Masks an ID number except its first and last two characters: "A1******89". */
export function maskIdNumber(value: string): string {
  if (value.length <= 4) return '*'.repeat(value.length);
  return value.slice(0, 2) + '*'.repeat(value.length - 4) + value.slice(-2);
}

/** Masks a card number except its last four digits: "**** 1234". */
export function maskCardNumber(value: string): string {
  return `**** ${value.slice(-4)}`;
}

/**
 * Whether a digit password is trivial to guess: one digit repeated (111111) or a run of
 * consecutive digits up or down (123456, 654321, 012345). Such passwords are the first ones any
 * guesser tries (they head every published list of leaked six-digit PINs), so the funds password
 * refuses them (error key `fundsPasswordTrivial`).
 */
export function isTrivialDigitPassword(pin: string): boolean {
  if (!/^\d{2,}$/.test(pin)) return false;
  const d = pin.split('').map(Number);
  const steps = new Set(d.slice(1).map((x, i) => x - d[i]!));
  return steps.size === 1 && [0, 1, -1].includes([...steps][0]!);
}
