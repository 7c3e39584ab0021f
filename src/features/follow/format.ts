/** Follow screens' number formats. */

/** Basis points as a percentage with two decimals ("12.34%"); `signed` puts "+" before a gain. */
export function bpsPercent(bps: number, signed = false): string {
  const s = (bps / 100).toFixed(2);
  return `${signed && bps > 0 ? '+' : ''}${s}%`;
}
