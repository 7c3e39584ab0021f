/**
 * ID numbers for test members who are verified on the way to a deposit, a subscription or a bid
 * (all need a verified identity): one per account, so members of one server never share one.
 */
import { isValidTaiwanId } from '../../contract/identity-rules';

/** Region letters K…T for the account's third digit: never A, the letter taiwanId(n) uses. */
const LETTERS = 'KLMNOPQRST';

/**
 * A valid national ID number derived from a ten-digit account 09abcdefgh: region letter from a,
 * sex digit 1, body bcdefgh, and the check digit that makes it valid.
 * @throws Error for an account that is not ten digits
 */
export function idNumberFor(account: string): string {
  if (!/^\d{10}$/.test(account)) throw new Error(`idNumberFor: not a ten-digit account: ${account}`);
  const stem = `${LETTERS[Number(account[2])]}1${account.slice(3)}`;
  for (let d = 0; d <= 9; d++) if (isValidTaiwanId(stem + d)) return stem + d;
  throw new Error(`idNumberFor: no check digit for ${stem}`);
}
