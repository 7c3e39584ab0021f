/**
 * `npm run ledger:check`: recomputes every ledger balance from the postings and the summed
 * position exposures from the orders (risk/exposures.ts), and prints the differences. Exit code 0
 * when clean, 1 when any difference is found.
 */
import { loadConfig } from '../../config';
import { openDatabase } from '../../db/client';
import { exposureDrift } from '../risk/exposures';
import { isClean, reconcile } from './ledger';

const config = loadConfig();
const database = await openDatabase(config.databaseUrl);
const result = await reconcile(database.db);
const drift = await exposureDrift(database.db);
await database.close();
console.log(JSON.stringify({ ...result, exposureDrift: drift }, null, 2));
const clean = isClean(result) && drift.length === 0;
console.log(
  clean
    ? `ledger clean: ${result.accounts} accounts, ${result.transactions} transactions, 0 differences; position exposures match the orders`
    : `LEDGER DIFFERENCES: ${result.balanceDifferences.length} balances, ${result.unbalancedTransactions.length} unbalanced transactions, ${result.negativeBalances.length} negative balances, ${drift.length} position exposures`,
);
process.exit(clean ? 0 : 1);
