/** Registration, login and sessions (product-spec §5 "Login", "Register"; §4 "Session"). */
import { z } from 'zod';
import { LOGIN_ACCOUNT_RE, MOBILE_RE, PASSWORD_RE } from './constants';

/** A member's account is a ten-digit mobile number (digits only, so never capitals). */
export const accountSchema = z.string().trim().regex(MOBILE_RE, 'account');
/** Eight or more English letters or digits (the spec's password hint). */
export const passwordSchema = z.string().regex(PASSWORD_RE, 'password');

export const registerReq = z
  .object({
    account: accountSchema,
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
});
export type SessionRes = z.infer<typeof sessionRes>;

export const emptyReq = z.object({}).strict();
export const okRes = z.object({ ok: z.literal(true) });
