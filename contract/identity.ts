/**
 * Who the member is: uploads, real-name verification (KYC), login and funds passwords, bank cards
 * (product-spec §3 "Real-name record", "Bank card"; §5 "Real-name", "Bank card"; §8 "Identity").
 */
import { z } from 'zod';
import { idSchema as id } from './ids';
import { FUNDS_PASSWORD_RE, KYC_STATUSES, UPLOAD_PURPOSES } from './constants';
import { passwordSchema } from './auth';
import { BANK_CODE_RE, BRANCH_CODE_RE, UPI_RE } from './banks';
import { isTrivialDigitPassword, isValidTaiwanId } from './identity-rules';

export { KYC_STATUSES, UPLOAD_PURPOSES } from './constants';
export type { KycStatus, UploadPurpose } from './constants';

/** An upload id as `POST /api/vue/upload` returns it (32 hex characters). */
export const uploadIdSchema = z.string().regex(/^[a-f0-9]{32}$/, 'uploadFailed');

/** Answer of `POST /api/vue/upload` (multipart: field `purpose`, then file field `file`). */
export const uploadRes = z.object({
  id: z.string(),
  purpose: z.enum(UPLOAD_PURPOSES),
  mime: z.string(),
  bytes: z.number().int(),
});
export type UploadRes = z.infer<typeof uploadRes>;

/** A person's name as on the ID: 2–40 characters, no digits. */
export const realNameSchema = z
  .string()
  .trim()
  .min(2, 'fieldsEmpty')
  .max(40)
  .regex(/^[^\d<>]+$/u, 'parameterError');

/** Taiwan national ID or resident certificate number, check digit verified (contract/identity-rules.ts). */
export const idNumberSchema = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .refine(isValidTaiwanId, 'invalidIdNumber');

export const submitKycReq = z.object({
  name: realNameSchema,
  idNumber: idNumberSchema,
  frontUploadId: uploadIdSchema,
  backUploadId: uploadIdSchema,
});

/** The member's KYC state; the ID number is masked except its first and last two characters. */
export const kycRes = z.object({
  status: z.enum(KYC_STATUSES),
  name: z.string().nullable(),
  idNumberMasked: z.string().nullable(),
  /** The operator's reason when not passed. */
  reason: z.string().nullable(),
  submittedAt: z.number().int().nullable(),
  reviewedAt: z.number().int().nullable(),
});
export type KycRes = z.infer<typeof kycRes>;

export const loginPasswordReq = z
  .object({
    oldPassword: z.string().min(1, 'fieldsEmpty').max(64),
    password: passwordSchema,
    confirmPassword: z.string().min(1).max(64),
  })
  .refine((v) => v.password === v.confirmPassword, { message: 'passwordsDiffer', path: ['confirmPassword'] })
  .refine((v) => v.password !== v.oldPassword, { message: 'passwordUnchanged', path: ['password'] });

/** A new funds password: six digits, not one repeated digit nor a run (isTrivialDigitPassword). */
export const fundsPasswordSchema = z
  .string()
  .regex(FUNDS_PASSWORD_RE, 'parameterError')
  .refine((v) => !isTrivialDigitPassword(v), 'fundsPasswordTrivial');

/** Sets the funds password, or changes it (then `oldFundsPassword` is required and checked). */
export const setFundsPasswordReq = z
  .object({
    oldFundsPassword: z.string().max(64).optional(),
    fundsPassword: fundsPasswordSchema,
    confirmFundsPassword: z.string().min(1).max(64),
  })
  .refine((v) => v.fundsPassword === v.confirmFundsPassword, {
    message: 'passwordsDiffer',
    path: ['confirmFundsPassword'],
  });

export const securityRes = z.object({
  fundsPasswordSet: z.boolean(),
  /** Withdrawals locked after too many wrong funds passwords (an operator unlocks). */
  fundsPasswordLocked: z.boolean(),
  fundsPasswordTriesLeft: z.number().int(),
});
export type SecurityRes = z.infer<typeof securityRes>;

/**
 * How the funds password request ended: `set` the first time, `changed` afterwards (the success
 * toast says which: server/http/api-routes.ts).
 */
export const FUNDS_PASSWORD_OUTCOMES = ['set', 'changed'] as const;
export const setFundsPasswordRes = z.object({
  ok: z.literal(true),
  outcome: z.enum(FUNDS_PASSWORD_OUTCOMES),
});
export type SetFundsPasswordRes = z.infer<typeof setFundsPasswordRes>;

/**
 * Adds a bank card (product-spec §3 "Bank card"). A Taiwan account (the default) is identified by
 * the 3-digit bank code (金融機構代號, contract/banks.ts; an unlisted well-formed code is allowed)
 * and the 4-digit branch code (分行代號); an account outside Taiwan (`outsideTaiwan: true`) by its
 * UPI / IFSC code instead. Mixing the two (a UPI on a Taiwan account, a bank or branch code on an
 * account outside Taiwan) is refused, so a stored card is unambiguous (docs/adr/0039-bank-cards-taiwan-codes.md).
 * Errors: fieldsEmpty when a field the account's kind needs is missing, parameterError for a
 * malformed one.
 */
export const addBankCardReq = z
  .object({
    holderName: realNameSchema,
    /** Digits only, 10–19 (Taiwan bank account numbers and card numbers). */
    cardNumber: z
      .string()
      .trim()
      .regex(/^\d{10,19}$/, 'parameterError'),
    /** true: an account at a bank outside Taiwan (UPI / IFSC instead of bank and branch code). */
    outsideTaiwan: z.boolean().optional(),
    /** Taiwan accounts: the 3-digit FISC bank code. */
    bankCode: z.string().trim().regex(BANK_CODE_RE, 'parameterError').optional(),
    /** For a listed bank code: its listed name (tw or en), else the listed tw name is stored. */
    bankName: z.string().trim().min(1, 'fieldsEmpty').max(60),
    branchName: z.string().trim().min(1, 'fieldsEmpty').max(60),
    /** Taiwan accounts: the 4-digit branch code (分行代號). */
    branchCode: z.string().trim().regex(BRANCH_CODE_RE, 'parameterError').optional(),
    /** Accounts outside Taiwan: the UPI / IFSC code. */
    upi: z.string().trim().regex(UPI_RE, 'parameterError').optional(),
  })
  .superRefine((v, ctx) => {
    const need = (field: 'bankCode' | 'branchCode' | 'upi') => {
      if (v[field] === undefined) ctx.addIssue({ code: 'custom', message: 'fieldsEmpty', path: [field] });
    };
    const refuse = (field: 'bankCode' | 'branchCode' | 'upi') => {
      if (v[field] !== undefined) ctx.addIssue({ code: 'custom', message: 'parameterError', path: [field] });
    };
    if (v.outsideTaiwan) {
      need('upi');
      refuse('bankCode');
      refuse('branchCode');
    } else {
      need('bankCode');
      need('branchCode');
      refuse('upi');
    }
  });
export type AddBankCardReq = z.infer<typeof addBankCardReq>;

/**
 * A card as members see it. `bankCode`/`branchCode` are null on accounts outside Taiwan (and a
 * card bound before bank codes were asked for may lack its bank code); `upi` is set on accounts
 * outside Taiwan (older cards may still carry the one they were bound with).
 */
export const bankCardSchema = z.object({
  id: z.number().int(),
  holderName: z.string(),
  /** Masked except the last four digits. */
  cardNumberMasked: z.string(),
  outsideTaiwan: z.boolean(),
  bankCode: z.string().nullable(),
  bankName: z.string(),
  branchName: z.string(),
  branchCode: z.string().nullable(),
  upi: z.string().nullable(),
  createdAt: z.number().int(),
});
export type BankCard = z.infer<typeof bankCardSchema>;
export const bankCardsRes = z.array(bankCardSchema);
export const cardIdReq = z.object({ id });
