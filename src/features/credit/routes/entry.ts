/**
 * The router's door to the credit screens: a second dynamic import, so the list of the screens'
 * dependency chunks lives in this small chunk and not in the first screen's router (which is at
 * its byte budget, scripts/bundle-budget.mjs); opening a credit screen costs one more small request.
 */
export const loadCreditScreens = () => import('./screens');
