/** Starts the server from the environment (see server/config.ts and the README). */
import { buildApp } from './app';
import { loadConfig } from './config';

const config = loadConfig();
const { app, firstRun, feed } = await buildApp(config);
await app.listen({ port: config.port, host: config.host });

const clock = feed.clock();
const lines = [
  `TW Trade listening on http://localhost:${config.port}  (database: ${config.databaseUrl.startsWith('postgres') ? 'PostgreSQL' : 'PGlite ' + config.databaseUrl})`,
  clock.source === 'stress'
    ? `market: stress source (simulated), ${feed.listQuotes().length} instruments, ${config.stressRate} trades/s`
    : `market: ${clock.mode}${clock.mode === 'replay' ? ' (simulated sessions replaying real TWSE days)' : ''}, speed ${clock.speed}×, ${feed.listQuotes().length} instruments`,
];
if (firstRun.created) {
  lines.push(
    'First run: created the operator account and an invitation code (also saved in DATA_DIR/first-run.txt):',
    `  operator console: http://localhost:${config.port}/admin.html   account: ${firstRun.operatorAccount}   password: ${firstRun.operatorPassword}`,
    `  invitation code for registering members: ${firstRun.inviteCode}`,
  );
}
if (firstRun.renamedFrom)
  lines.push(
    `Renamed the operator account "${firstRun.renamedFrom}" to "${firstRun.operatorAccount}" (OPERATOR_ACCOUNT).`,
  );
if (firstRun.defaultOperatorName) {
  lines.push(
    `Warning: an operator account is still named "${firstRun.defaultOperatorName}", the old default anyone can guess;` +
      ' set OPERATOR_ACCOUNT to a name of your own and restart to rename it.',
  );
}
console.log(lines.join('\n'));

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    void app.close().then(() => process.exit(0));
  });
}
