/**
 * Who the member is: uploads, real-name verification (KYC), login and funds passwords, bank cards
 * (product-spec §3 "Real-name record", "Bank card"; §5 "Real-name", "Bank card"; §8 "Identity").
 */
import { z } from 'zod';
import { FUNDS_PASSWORD_RE, KYC_STATUSES, UPLOAD_PURPOSES } from './constants';
import { passwordSchema } from './auth';
import { isValidTaiwanId } from './identity-rules';

export { KYC_STATUSES, UPLOAD_PURPOSES } from './constants';
export type { KycStatus, UploadPurpose } from './constants';

const id = z.number().int().positive().max(2_147_483_647);
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
  .refine((v) => v.password === v.confirmPassword, { message: 'passwordsDiffer', path: ['confirmPassword'] });

export const fundsPasswordSchema = z.string().regex(FUNDS_PASSWORD_RE, 'parameterError');

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

export const addBankCardReq = z.object({
  holderName: realNameSchema,
  /** Digits only, 10–19 (Taiwan bank account numbers and card numbers). */
  cardNumber: z
    .string()
    .trim()
    .regex(/^\d{10,19}$/, 'parameterError'),
  bankName: z.string().trim().min(1, 'fieldsEmpty').max(60),
  branchName: z.string().trim().min(1, 'fieldsEmpty').max(60),
  /** Taiwan bank branch code: 3-digit bank + 4-digit branch, or the 3/7-digit forms. */
  branchCode: z
    .string()
    .trim()
    .regex(/^\d{3,7}$/, 'parameterError'),
  /** The spec's "UPI (also labelled IFSC)" field: 1–32 letters, digits, '@', '.', '-'. */
  upi: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9@.-]{1,32}$/, 'parameterError'),
});

export const bankCardSchema = z.object({
  id: z.number().int(),
  holderName: z.string(),
  /** Masked except the last four digits. */
  cardNumberMasked: z.string(),
  bankName: z.string(),
  branchName: z.string(),
  branchCode: z.string(),
  upi: z.string(),
  createdAt: z.number().int(),
});
export type BankCard = z.infer<typeof bankCardSchema>;
export const bankCardsRes = z.array(bankCardSchema);
export const cardIdReq = z.object({ id });
