/** Registration, login and sessions (product-spec §5 "Login", "Register"; §4 "Session"). */
import { z } from 'zod';
import { idSchema } from './ids';
import { LOGIN_ACCOUNT_RE, MOBILE_RE, PASSWORD_RE, TW_MOBILE_RE } from './constants';

/** A member's account is a ten-digit mobile number (digits only, so never capitals). */
export const accountSchema = z.string().trim().regex(MOBILE_RE, 'account');
/** Eight or more English letters or digits (the spec's password hint). */
export const passwordSchema = z.string().regex(PASSWORD_RE, 'password');

/** A new member's account: a Taiwan mobile number (09 and 8 digits); empty says so by name. */
export const registerAccountSchema = z
  .string()
  .trim()
  .min(1, 'mobileRequired')
  .regex(TW_MOBILE_RE, 'mobileInvalid');

export const registerReq = z
  .object({
    account: registerAccountSchema,
    password: passwordSchema,
    confirmPassword: z.string().min(1).max(64),
    inviteCode: z.string().trim().min(1).max(32),
    agree: z.literal(true),
  })
  .refine((v) => v.password === v.confirmPassword, { message: 'passwordsDiffer', path: ['confirmPassword'] });

export const loginReq = z.object({
  /** Operators may log in with a non-mobile account name; lowercase only (spec: no capitals). */
  account: z.string().trim().regex(LOGIN_ACCOUNT_RE, 'account'),
  password: z.string().min(1).max(64),
  /**
   * The token this device was handed at an earlier successful login of this account (kept on the
   * device): a known device logs in even while guessing from other addresses has the account or
   * the address throttled. Unknown or malformed tokens are ignored.
   */
  device: z.string().max(128).optional(),
});

/** Who a user is (users.role): roles live in the database, never in a request header. */
export const ROLES = ['member', 'operator', 'admin'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

export const sessionRes = z.object({
  token: z.string(),
  account: z.string(),
  role: roleSchema,
  /** Kept for the spec's local-storage shape; it grants nothing on the server. */
  isAdmin: z.boolean(),
  expiresAt: z.number().int(),
  /** Login only: the device token to keep and send with this account's next logins (see loginReq). */
  device: z.string().optional(),
});
export type SessionRes = z.infer<typeof sessionRes>;

export const emptyReq = z.object({}).strict();
export const okRes = z.object({ ok: z.literal(true) });

/**
 * Password reset through the operator (`/login/logon` → `/login/logon2`): the member asks with
 * their account (their mobile number); an operator calls that number, and once the person on the
 * phone is the member, issues a one-time code read out on the call; the member sets a new
 * password with it. Statuses: pending (asked, not yet called) → issued (a code exists) → used;
 * pending or issued → expired (timed out, too many wrong codes, or replaced by a newer request).
 */
export const PASSWORD_RESET_STATUSES = ['pending', 'issued', 'used', 'expired'] as const;
export type PasswordResetStatus = (typeof PASSWORD_RESET_STATUSES)[number];
/** Digits in a reset code. */
export const RESET_CODE_DIGITS = 6;

/** Step 1: the same answer whether or not the account exists. */
export const resetRequestReq = z.object({ account: accountSchema });
/** Step 2. A wrong code, an unknown account and an expired request all answer `resetCodeInvalid`. */
export const resetPasswordReq = z.object({
  account: accountSchema,
  code: z
    .string()
    .trim()
    .regex(new RegExp(`^\\d{${RESET_CODE_DIGITS}}$`), 'code'),
  password: passwordSchema,
});
export const adminPasswordResetsRes = z.array(
  z.object({
    id: z.number().int(),
    account: z.string(),
    /** The verified real name, when the member has passed KYC: what the operator asks on the call. */
    realName: z.string().nullable(),
    status: z.enum(PASSWORD_RESET_STATUSES),
    createdAt: z.string(),
    expiresAt: z.string().nullable(),
  }),
);
export const issueResetCodeReq = z.object({ id: idSchema });
/** The code is shown once, to the operator on the call; only its hash is stored. */
export const issueResetCodeRes = z.object({ id: z.number().int(), code: z.string(), expiresAt: z.string() });
