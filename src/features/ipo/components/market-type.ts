/**
 * An offering's market type (the announcement's text, e.g. 初上市) in the member's language:
 * the key contract/ipo.ts IPO_MARKET_TYPES gives it under `ipo.marketTypes`, or the text as
 * printed when the announcement used one not listed there.
 */
import { IPO_MARKET_TYPES } from '../../../../contract/ipo';

export function marketTypeLabel(text: string, t: (k: string, v?: Record<string, unknown>) => string): string {
  const key = IPO_MARKET_TYPES[text];
  return key ? t(`ipo.marketTypes.${key}`, { defaultValue: text }) : text;
}
