/**
 * The one way other modules tell a member about an event on its account: `notifyMember` writes an
 * account notice (contract/notices.ts) in the caller's transaction, so the notice exists exactly
 * when the event does (a rolled-back review leaves no notice behind).
 */
import type { AccountNoticeKind, NoticeParams } from '../../../contract/notices';
import type { Db, Tx } from '../../db/client';
import { memberNotices } from '../../db/schema';

/**
 * Writes an account notice for `memberId`: `kind` names the translatable title and body
 * (locales/more `notices.kind.<kind>`), `params` their values (money in minor units with its
 * currency, ids, short texts such as an operator's reason). Pass the event's transaction.
 * @returns the notice's row id
 */
export async function notifyMember(
  tx: Tx | Db,
  memberId: number,
  kind: AccountNoticeKind,
  params: NoticeParams = {},
): Promise<number> {
  const [row] = await tx
    .insert(memberNotices)
    .values({ userId: memberId, kind, params: JSON.stringify(params) })
    .returning({ id: memberNotices.id });
  return row!.id;
}
