/**
 * The REST API's base path (product-spec §7), alone in its module: the first-paint bundle (the
 * entry's early requests, src/api/early.ts) needs only this string, not the other constants.
 */
export const API_BASE = '/api/vue/';
