/**
 * credit/* (member) and admin/creditLoans, admin/approveCreditLoan, admin/rejectCreditLoan,
 * admin/creditSettings, admin/saveCreditSettings (operator): thin wrappers over loans.ts,
 * review.ts, score.ts and settings.ts on the market calendar's trading day (runner.ts).
 * Product-spec §2 "Credit loans", §3 "Credit loan", route /user/jkjl (loan records).
 */
import { requireUser, type Handlers } from '../common/context';
import { applyForLoan, exposureOf, memberLoans, repayLoan, standingOf, toLoanDto } from './loans';
import { adminLoans, reviewLoan } from './review';
import { overdueCount } from './score';
import { creditSettingsOf, saveCreditSettings } from './settings';

type CreditEndpoints =
  | 'credit/summary'
  | 'credit/apply'
  | 'credit/repay'
  | 'credit/loans'
  | 'admin/creditLoans'
  | 'admin/approveCreditLoan'
  | 'admin/rejectCreditLoan'
  | 'admin/creditSettings'
  | 'admin/saveCreditSettings';

export const creditHandlers: Pick<Handlers, CreditEndpoints> = {
  async 'credit/summary'(_body, ctx) {
    const user = requireUser(ctx);
    const today = ctx.services.credit.today();
    const settings = await creditSettingsOf(ctx.db);
    const s = await standingOf(ctx.db, settings, user.id, ctx.now(), today);
    const e = await exposureOf(ctx.db, user.id);
    const borrowed = e.lendingPrincipal + e.pendingPrincipal;
    return {
      score: s.score,
      factors: s.factors,
      limitMinor: s.limitMinor,
      borrowedMinor: borrowed,
      availableMinor: Math.max(0, s.limitMinor - borrowed),
      debtMinor: e.debt,
      overdue: (await overdueCount(ctx.db, user.id, today)) > 0,
      annualRateBps: settings.annualRateBps,
      termDays: settings.termDays,
      bands: settings.bands,
      today,
    };
  },

  async 'credit/apply'(body, ctx) {
    const user = requireUser(ctx);
    const today = ctx.services.credit.today();
    const settings = await creditSettingsOf(ctx.db);
    return toLoanDto(await applyForLoan(ctx.db, settings, user, body.amountMinor, ctx.now(), today), today);
  },

  async 'credit/repay'(body, ctx) {
    const user = requireUser(ctx);
    const today = ctx.services.credit.today();
    return toLoanDto(await repayLoan(ctx.db, user, body.loanId, body.amountMinor, ctx.now(), today), today);
  },

  async 'credit/loans'(body, ctx) {
    const user = requireUser(ctx);
    return memberLoans(ctx.db, user.id, body.page, body.pageSize, ctx.services.credit.today());
  },

  async 'admin/creditLoans'(body, ctx) {
    return adminLoans(ctx.db, await creditSettingsOf(ctx.db), body, ctx.now(), ctx.services.credit.today());
  },

  async 'admin/approveCreditLoan'(body, ctx) {
    const op = requireUser(ctx);
    return reviewLoan(ctx.db, await creditSettingsOf(ctx.db), {
      id: body.id,
      operatorId: op.id,
      decision: 'lending',
      reason: null,
      nowMs: ctx.now(),
      today: ctx.services.credit.today(),
    });
  },

  async 'admin/rejectCreditLoan'(body, ctx) {
    const op = requireUser(ctx);
    return reviewLoan(ctx.db, await creditSettingsOf(ctx.db), {
      id: body.id,
      operatorId: op.id,
      decision: 'rejected',
      reason: body.reason,
      nowMs: ctx.now(),
      today: ctx.services.credit.today(),
    });
  },

  async 'admin/creditSettings'(_body, ctx) {
    return creditSettingsOf(ctx.db);
  },

  async 'admin/saveCreditSettings'(body, ctx) {
    const op = requireUser(ctx);
    return saveCreditSettings(ctx.db, body, op.id, ctx.now());
  },
};
