/**
 * First start: creates the operator account and an invitation code when none exist, prints both
 * and writes them to `${DATA_DIR}/first-run.txt` (mode 0600). OPERATOR_ACCOUNT, OPERATOR_PASSWORD
 * and INVITE_CODE set your own; otherwise all three are random: there is no default operator
 * account name to guess (`op-` and eight random letters and digits, `generatedOperatorAccount`).
 * An older install whose operator is still `admin` has it renamed to OPERATOR_ACCOUNT when that
 * is set, and is warned about it otherwise. The code is owned by
 * the operator and allows FIRST_RUN_INVITE_MAX_USES registrations (1000) for FIRST_RUN_INVITE_DAYS
 * (365) from the first start (modules/auth/config.ts); operators issue further codes in the console.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { invitationCodes, users } from '../../db/schema';
import { ensureMemberAccounts } from '../ledger/ledger';
import { hashPassword } from './passwords';

/** The operator name installs used to be given by default: guessable, so main.ts warns about it. */
const OLD_DEFAULT_OPERATOR = 'admin';

/** What the first start created; `created` is false on every later start. */
export interface FirstRunResult {
  created: boolean;
  /** On a later start: an operator still has the old default name `admin` (warn the owner). */
  defaultOperatorName?: string;
  /** On a later start: the operator's old default name, renamed to `operatorAccount`. */
  renamedFrom?: string;
  operatorAccount?: string;
  operatorPassword?: string;
  inviteCode?: string;
}

/** A random operator account name: `op-` + 8 of [a-z0-9] (fits LOGIN_ACCOUNT_RE, contract/constants.ts). */
export function generatedOperatorAccount(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return 'op-' + Array.from({ length: 8 }, () => alphabet[randomInt(alphabet.length)]).join('');
}

/**
 * A later start of an install from before names were generated: an operator still named
 * OLD_DEFAULT_OPERATOR is renamed to OPERATOR_ACCOUNT when that is set and free (sessions and
 * history stay with the account); otherwise it is reported so main.ts warns.
 */
async function renameDefaultOperator(db: Db, wanted: string | undefined): Promise<FirstRunResult> {
  const [old] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(ne(users.role, 'member'), eq(users.account, OLD_DEFAULT_OPERATOR)))
    .limit(1);
  if (!old) return { created: false };
  if (wanted && wanted !== OLD_DEFAULT_OPERATOR) {
    const renamed = await db
      .update(users)
      .set({ account: wanted })
      .where(
        and(eq(users.id, old.id), sql`not exists (select 1 from ${users} u2 where u2.account = ${wanted})`),
      )
      .returning({ id: users.id });
    if (renamed.length) return { created: false, operatorAccount: wanted, renamedFrom: OLD_DEFAULT_OPERATOR };
  }
  return { created: false, defaultOperatorName: OLD_DEFAULT_OPERATOR };
}

/** Creates the operator and an invitation code when no operator exists yet (idempotent). */
export async function firstRun(db: Db, config: Config): Promise<FirstRunResult> {
  const operator = (
    await db.select({ id: users.id }).from(users).where(ne(users.role, 'member')).limit(1)
  )[0];
  if (operator) return renameDefaultOperator(db, config.operatorAccount);
  const operatorPassword =
    config.operatorPassword ?? randomBytes(9).toString('base64url').replace(/[-_]/g, 'x');
  const operatorAccount = config.operatorAccount ?? generatedOperatorAccount();
  const inviteCode = config.inviteCode ?? randomBytes(4).toString('hex').toUpperCase();
  const passwordHash = await hashPassword(operatorPassword);
  await db.transaction(async (tx) => {
    const [op] = await tx
      .insert(users)
      .values({ account: operatorAccount, passwordHash, role: 'admin' })
      .onConflictDoUpdate({ target: users.account, set: { role: 'admin', passwordHash } })
      .returning();
    await ensureMemberAccounts(tx, op!.id);
    const existing = await tx.select().from(invitationCodes).where(eq(invitationCodes.code, inviteCode));
    if (!existing.length)
      await tx.insert(invitationCodes).values({
        code: inviteCode,
        createdBy: op!.id,
        maxUses: config.firstRunInviteMaxUses,
        expiresAt: new Date(Date.now() + config.firstRunInviteDays * 86_400_000),
      });
  });
  if (!config.databaseUrl.startsWith('memory://')) {
    await mkdir(config.dataDir, { recursive: true });
    await writeFile(
      path.join(config.dataDir, 'first-run.txt'),
      `operator account: ${operatorAccount}\noperator password: ${operatorPassword}\ninvitation code: ${inviteCode}\n`,
      { mode: 0o600 },
    );
  }
  return { created: true, operatorAccount, operatorPassword, inviteCode };
}
