/**
 * An ex-rights event's kind (息, 權, 權息 as the exchange prints it) in the member's language:
 * the key contract/dividends.ts EX_RIGHTS_KINDS gives it under `dividend.kinds`, or the text as
 * printed when it is not one of those.
 */
import { EX_RIGHTS_KINDS } from '../../../../contract/dividends';

export function exRightsKindLabel(
  kindZh: string,
  t: (k: string, v?: Record<string, unknown>) => string,
): string {
  const key = EX_RIGHTS_KINDS[kindZh];
  return key ? t(`dividend.kinds.${key}`, { defaultValue: kindZh }) : kindZh;
}
