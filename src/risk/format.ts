/** Display helpers for risk figures (integer arithmetic: no float touches a ratio). */

/** Basis points as a percentage with 2 decimals: 12_530 → "125.30%", −305 → "-3.05%"; '--' for null. */
export function formatBps(bps: number | null | undefined): string {
  if (bps === null || bps === undefined || !Number.isSafeInteger(bps)) return '--';
  const abs = Math.abs(bps);
  return `${bps < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}%`;
}
