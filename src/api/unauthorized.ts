/**
 * What happens after an HTTP 401 (product-spec §2, §7): the session is cleared at once and the
 * app navigates to its login screen after 1.5 s. The app registers the navigation; the base query
 * only triggers it (the api layer knows no router).
 */
export const UNAUTHORIZED_REDIRECT_MS = 1_500;

let handler: () => void = () => undefined;
let pending: ReturnType<typeof setTimeout> | null = null;

export function setUnauthorizedHandler(fn: () => void): void {
  handler = fn;
}

/** Schedules the redirect once, however many requests fail together. */
export function scheduleUnauthorizedRedirect(): void {
  if (pending !== null) return;
  pending = setTimeout(() => {
    pending = null;
    handler();
  }, UNAUTHORIZED_REDIRECT_MS);
}
