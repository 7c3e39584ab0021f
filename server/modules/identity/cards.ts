/** Bank-card lookups shared by the withdrawal handlers, and the card shape members see. */
import { and, eq, isNull } from 'drizzle-orm';
import { bankByCode } from '../../../contract/banks';
import type { AddBankCardReq } from '../../../contract/identity';
import { maskCardNumber } from '../../../contract/identity-rules';
import type { Db, Tx } from '../../db/client';
import { bankCards } from '../../db/schema';
import { fail } from '../common/errors';

export type BankCardRow = typeof bankCards.$inferSelect;

/**
 * The member's live (not deleted) card with this id.
 * @throws AppError cardNotFound (404) when it does not exist, is deleted, or belongs to someone else
 *   (another member's card is reported as not found, so ids reveal nothing).
 */
export async function requireOwnCard(db: Db | Tx, userId: number, cardId: number): Promise<BankCardRow> {
  const [card] = await db
    .select()
    .from(bankCards)
    .where(and(eq(bankCards.id, cardId), eq(bankCards.userId, userId), isNull(bankCards.deletedAt)));
  if (!card) throw fail('cardNotFound');
  return card;
}

/**
 * A name as compared between a card's holder and the verified real name: trimmed, every run of
 * white space (ASCII or the ideographic space U+3000) collapsed to one ASCII space.
 */
export function normaliseName(name: string): string {
  return name.trim().replace(/\s+/gu, ' ');
}

/**
 * The bank identification a new card is stored with: a Taiwan account's bank code, branch code
 * and bank name, or an account outside Taiwan's UPI / IFSC with the typed bank name. For a listed
 * bank code (contract/banks.ts) the name is the listed one: the member's screen fills it in their
 * language (tw or en), and any other name sent with that code is replaced by the listed tw name,
 * so code and name never disagree. The request is already validated (contract/identity.ts
 * addBankCardReq), so each kind carries exactly its own fields.
 */
export function cardCodes(body: AddBankCardReq) {
  if (body.outsideTaiwan)
    return { outsideTaiwan: true, bankCode: null, branchCode: null, bankName: body.bankName, upi: body.upi! };
  const listed = bankByCode(body.bankCode);
  const bankName =
    !listed || body.bankName === listed.tw || body.bankName === listed.en ? body.bankName : listed.tw;
  return {
    outsideTaiwan: false,
    bankCode: body.bankCode!,
    branchCode: body.branchCode!,
    bankName,
    upi: null,
  };
}

/** A card as members see it (number masked except its last four digits). */
export function bankCardDto(card: BankCardRow) {
  return {
    id: card.id,
    holderName: card.holderName,
    cardNumberMasked: maskCardNumber(card.cardNumber),
    outsideTaiwan: card.outsideTaiwan,
    bankCode: card.bankCode,
    bankName: card.bankName,
    branchName: card.branchName,
    branchCode: card.branchCode,
    upi: card.upi,
    createdAt: card.createdAt.getTime(),
  };
}
