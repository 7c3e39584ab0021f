/** The credit screens, loaded as one chunk by the router (src/app/router.tsx). */
export { CreditPage } from './credit';
export { LoanRecordsPage } from './loan-records';
