/**
 * A timeout that fires `onExpire` once `deadline()` (epoch ms, null: none) has passed, checked
 * lazily: moving the deadline later needs no re-arming (no timer churn per message); when the
 * timer fires early it re-arms itself for the deadline as it is then.
 */
export function lazyDeadline(now: () => number, deadline: () => number | null, onExpire: () => void) {
  let t: ReturnType<typeof setTimeout> | null = null;
  const clear = (): void => {
    if (t !== null) clearTimeout(t);
    t = null;
  };
  const check = (): void => {
    t = null;
    const d = deadline();
    if (d === null) return;
    if (now() >= d) onExpire();
    else arm();
  };
  const arm = (): void => {
    clear();
    const d = deadline();
    if (d !== null) t = setTimeout(check, Math.max(0, d - now()));
  };
  return { arm, clear };
}
