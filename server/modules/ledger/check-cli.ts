/**
 * `npm run ledger:check`: recomputes every ledger balance from the postings and prints the
 * differences. Exit code 0 when clean, 1 when any difference is found.
 */
import { loadConfig } from '../../config';
import { openDatabase } from '../../db/client';
import { isClean, reconcile } from './ledger';

const config = loadConfig();
const database = await openDatabase(config.databaseUrl);
const result = await reconcile(database.db);
await database.close();
console.log(JSON.stringify(result, null, 2));
console.log(
  isClean(result)
    ? `ledger clean: ${result.accounts} accounts, ${result.transactions} transactions, 0 differences`
    : `LEDGER DIFFERENCES: ${result.balanceDifferences.length} balances, ${result.unbalancedTransactions.length} unbalanced transactions, ${result.negativeBalances.length} negative balances`,
);
process.exit(isClean(result) ? 0 : 1);
