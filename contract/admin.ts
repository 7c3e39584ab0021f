/** Operator console calls (admin.html). Every call requires an operator or admin session. */
import { z } from 'zod';
import { idSchema } from './ids';
import { pageQuery, paged } from './envelope';
import { depositStatusSchema, fxRateSchema, withdrawalStatusSchema } from './funds';
import { roleSchema } from './auth';
import { KYC_STATUSES } from './constants';
import { CURRENCIES } from './constants';

/**
 * Operator actions the audit log records (here, not in contract/constants.ts: only the console and
 * the server need the list, and the constants chunk is on the app's first screen).
 */
/** Largest exchange rate an operator can set, in parts per million (1e9 per unit). */
export const MAX_RATE_PPM = 1e15;

export const AUDIT_ACTIONS = [
  'kyc.approve',
  'kyc.reject',
  'deposit.approve',
  'deposit.reject',
  'withdrawal.approve',
  'withdrawal.reject',
  'user.flags',
  'user.unlockFundsPassword',
  'channel.create',
  'channel.update',
  'rate.update',
  'config.update',
  'dayTrade.approve',
  'dayTrade.reject',
  'mentor.approve',
  'mentor.reject',
  'mentor.settings',
  'follow.cancel',
  'review.selfRefused',
  'invitation.create',
  'invitation.disable',
  'offering.create',
  'offering.update',
  'primary.approve',
  'primary.reject',
  'pointsCodes.create',
  'level.save',
  'level.delete',
  'coupon.grant',
  'passwordReset.issue',
  'page.update',
  'news.publish',
  'news.update',
  'news.status',
  'credit.approve',
  'credit.reject',
  'lending.channel',
  'lending.quota',
  'notice.create',
  'notice.edit',
  'notice.publish',
  'notice.withdraw',
  'support.assign',
  'support.resolve',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const adminDepositsReq = pageQuery.extend({ status: z.enum(['pending', 'all']).default('pending') });
/** A deposit listed against another's receipt (admin deposits' receiptMatches). */
const receiptMatchSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  account: z.string(),
  status: depositStatusSchema,
});
export const adminDepositSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  account: z.string(),
  amountMinor: z.number().int(),
  currency: z.string(),
  status: depositStatusSchema,
  reason: z.string().nullable(),
  createdAt: z.number().int(),
  channelName: z.string().nullable(),
  /** The transfer receipt; the console shows it through GET /api/vue/upload/{id}. */
  receiptUploadId: z.string().nullable(),
  /**
   * Other deposits whose receipt is the same picture (sha256 of the decoded pixels; of the bytes
   * sent for receipts stored before pictures were hashed), newest first, at most RECEIPT_MATCHES_MAX: another member's is the flag the reviewer must see
   * (the same member cannot have two live ones; a rejected one may be listed). Empty when unique.
   */
  receiptMatches: z.array(receiptMatchSchema),
  /**
   * Other deposits whose receipt looks the same without being the same picture (a re-encoded,
   * rescaled or retouched copy): perceptual hashes at most RECEIPT_NEAR_DISTANCE_MAX bits apart,
   * closest first, at most RECEIPT_MATCHES_MAX; `distance` in bits of 256. Any member, any state.
   */
  receiptNearMatches: z.array(receiptMatchSchema.extend({ distance: z.number().int().min(0).max(256) })),
});
export const adminDepositsRes = paged(adminDepositSchema);
/** How many other deposits with the same receipt an admin deposit lists. */
export const RECEIPT_MATCHES_MAX = 10;
/**
 * Largest Hamming distance (bits of the 256-bit perceptual hash) at which another deposit's
 * receipt is listed as a near match. Measured on generated bank receipts: a JPEG q95 or q60
 * re-encoding 4–6 bits, a rescale 2; two different transfers on one bank's template 24.
 */
export const RECEIPT_NEAR_DISTANCE_MAX = 12;

export const reviewReq = z.object({ id: idSchema });
export const rejectReq = reviewReq.extend({ reason: z.string().trim().min(1).max(200) });

export const adminUsersReq = pageQuery.extend({ q: z.string().trim().max(32).optional() });
export const adminUserSchema = z.object({
  id: z.number().int(),
  account: z.string(),
  role: roleSchema,
  availableMinor: z.number().int(),
  disabled: z.boolean(),
  frozen: z.boolean(),
  loginBanned: z.boolean(),
  withdrawBanned: z.boolean(),
  tradeBanned: z.boolean(),
  fundsPasswordLocked: z.boolean(),
  kycStatus: z.enum(KYC_STATUSES),
  createdAt: z.number().int(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUsersRes = paged(adminUserSchema);

/** admin/setUserFlags: the account flags of product-spec §6; omitted flags stay as they are. */
export const setUserFlagsReq = z.object({
  id: idSchema,
  disabled: z.boolean().optional(),
  frozen: z.boolean().optional(),
  loginBanned: z.boolean().optional(),
  withdrawBanned: z.boolean().optional(),
  tradeBanned: z.boolean().optional(),
  reason: z.string().trim().min(1).max(200),
});
export const userIdReq = z.object({ id: idSchema });

const queueReq = pageQuery.extend({ status: z.enum(['pending', 'all']).default('pending') });

/** KYC review queue. */
export const adminKycReq = queueReq;
export const adminKycSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  account: z.string(),
  name: z.string(),
  /** Operators see the full number. */
  idNumber: z.string(),
  frontUploadId: z.string(),
  backUploadId: z.string(),
  status: z.enum(KYC_STATUSES),
  reason: z.string().nullable(),
  createdAt: z.number().int(),
  /** Another member's record of this ID number is verified or in review: reject this one. */
  duplicateId: z.boolean(),
});
export const adminKycRes = paged(adminKycSchema);

/** Withdrawal review queue. */
export const adminWithdrawalsReq = queueReq;
export const adminWithdrawalSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  account: z.string(),
  amountMinor: z.number().int(),
  currency: z.string(),
  holderName: z.string(),
  cardNumber: z.string(),
  /** The card's bank identification (contract/identity.ts bankCardSchema says when each is null). */
  outsideTaiwan: z.boolean(),
  bankCode: z.string().nullable(),
  bankName: z.string(),
  branchName: z.string(),
  branchCode: z.string().nullable(),
  upi: z.string().nullable(),
  status: withdrawalStatusSchema,
  reason: z.string().nullable(),
  createdAt: z.number().int(),
});
export const adminWithdrawalsRes = paged(adminWithdrawalSchema);

/** Deposit channels as operators manage them. */
export const adminChannelSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  accountName: z.string(),
  accountNumber: z.string(),
  bankName: z.string(),
  branch: z.string(),
  currency: z.string(),
  minMinor: z.number().int(),
  maxMinor: z.number().int(),
  hasPassword: z.boolean(),
  enabled: z.boolean(),
});
export const adminChannelsRes = z.array(adminChannelSchema);
/** Creates (no id) or updates a channel. `password`: a new channel password, '' to remove it, omitted to keep it. */
export const saveChannelReq = z
  .object({
    id: idSchema.optional(),
    name: z.string().trim().min(1).max(60),
    accountName: z.string().trim().min(1).max(60),
    accountNumber: z
      .string()
      .trim()
      .regex(/^\d{6,19}$/, 'parameterError'),
    bankName: z.string().trim().min(1).max(60),
    branch: z.string().trim().min(1).max(60),
    /** Omitted: TWD for a new channel, unchanged on an update. */
    currency: z.enum(CURRENCIES).optional(),
    minMinor: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    maxMinor: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    password: z.string().max(64).optional(),
    /** Omitted: enabled for a new channel, unchanged on an update. */
    enabled: z.boolean().optional(),
  })
  .refine((v) => v.minMinor <= v.maxMinor, { message: 'parameterError', path: ['maxMinor'] });

/** admin/saveRate: sets a currency's rate against USD (sellPpm ≥ buyPpm > 0). */
export const saveRateReq = z
  .object({
    currency: z.enum(CURRENCIES).refine((c) => c !== 'USD', 'sameCurrency'),
    buyPpm: z.number().int().positive().max(MAX_RATE_PPM),
    sellPpm: z.number().int().positive().max(MAX_RATE_PPM),
  })
  .refine((v) => v.sellPpm >= v.buyPpm, { message: 'parameterError', path: ['sellPpm'] });
export const adminRatesRes = z.array(fxRateSchema);

/**
 * Site settings operators may change (served by common/config): title, logo, deposit hours
 * (HH:MM Asia/Taipei; weekdays only; closed on exchange holidays), withdrawal limits (minor units).
 */
export const SITE_SETTINGS = [
  'title',
  'logo',
  'depositOpen',
  'depositClose',
  'depositWeekdaysOnly',
  'depositHolidaysClosed',
  'withdrawMinMinor',
  'withdrawMaxMinor',
] as const;
export const saveConfigReq = z.object({
  name: z.enum(SITE_SETTINGS),
  value: z.string().trim().min(1).max(300),
});
export const adminConfigRes = z.array(z.object({ name: z.string(), value: z.string() }));

/** The audit log of operator actions, newest first. */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  actorUserId: z.number().int(),
  actorAccount: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  targetType: z.string(),
  targetId: z.string().nullable(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  reason: z.string().nullable(),
  createdAt: z.number().int(),
});
export const auditLogRes = paged(auditEntrySchema);

/** admin/ledger: ledger transactions with their postings, newest first. */
export const adminLedgerReq = pageQuery.extend({
  userId: idSchema.optional(),
});
export const adminLedgerRes = paged(
  z.object({
    id: z.number().int(),
    type: z.string(),
    ref: z.string().nullable(),
    actorUserId: z.number().int().nullable(),
    createdAt: z.number().int(),
    postings: z.array(
      z.object({
        accountId: z.number().int(),
        /** "user 12 available" or "platform bank_clearing" */
        account: z.string(),
        currency: z.string(),
        amountMinor: z.number().int(),
      }),
    ),
  }),
);

/** Ledger reconciliation: every cached balance recomputed from postings; empty lists = clean. */
export const reconcileRes = z.object({
  accounts: z.number().int(),
  transactions: z.number().int(),
  balanceDifferences: z.array(
    z.object({ accountId: z.number().int(), cached: z.number().int(), fromPostings: z.number().int() }),
  ),
  unbalancedTransactions: z.array(
    z.object({ transactionId: z.number().int(), currency: z.string(), sum: z.number().int() }),
  ),
  negativeBalances: z.array(z.object({ accountId: z.number().int(), balance: z.number().int() })),
  clean: z.boolean(),
});

/**
 * Invitation codes (admin/invitations, admin/createInvitation, admin/disableInvitation): an owner
 * (the operator or member who issued it), a use limit and an expiry. `state` says whether it still
 * registers anyone: active, or disabled / expired / usedUp.
 */
export const INVITATION_STATES = ['active', 'disabled', 'expired', 'usedUp'] as const;
export const invitationSchema = z.object({
  code: z.string(),
  ownerId: z.number().int().nullable(),
  /** The owner's account. */
  owner: z.string().nullable(),
  maxUses: z.number().int(),
  uses: z.number().int(),
  /** Epoch ms. */
  expiresAt: z.number().int(),
  disabledAt: z.number().int().nullable(),
  createdAt: z.number().int(),
  state: z.enum(INVITATION_STATES),
});
export type InvitationView = z.infer<typeof invitationSchema>;
export const invitationsRes = z.object({ items: z.array(invitationSchema) });

/** Codes are typed by members: capitals and digits only (a random one when omitted). */
export const invitationCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{4,32}$/, 'parameterError');
export const createInvitationReq = z.object({
  code: invitationCodeSchema.optional(),
  /** Registrations it allows (INVITE_DEFAULT_MAX_USES when omitted). */
  maxUses: z.number().int().min(1).max(100_000).optional(),
  /** Whole days until it expires (INVITE_DEFAULT_DAYS when omitted). */
  validDays: z.number().int().min(1).max(3_650).optional(),
  /** The member or operator it is issued for (the calling operator when omitted). */
  ownerAccount: z.string().trim().min(1).max(32).optional(),
});
export const disableInvitationReq = z.object({ code: z.string().trim().min(1).max(32) });
