/**
 * wallet/overview, wallet/history (the asset overview screen, /wallet/index) and user/invite
 * (invite friends, /user/invite). Reads only, except user/invite issuing the member's code.
 */
import { EQUITY_MAX_DAYS } from '../../../contract/wallet';
import { requireUser, type Handlers } from '../common/context';
import { memberInvite } from './invites';
import { memberOverview } from './overview';
import { realisedByMonth } from './pnl';
import { equitySeries } from './snapshots';

/** The asset overview and invite-friends endpoints. */
export const walletHandlers: Pick<Handlers, 'wallet/overview' | 'wallet/history' | 'user/invite'> = {
  async 'wallet/overview'(_body, ctx) {
    const practice = ctx.config.marketSource === 'replay';
    return memberOverview(ctx.db, ctx.feed, requireUser(ctx).id, ctx.now(), practice);
  },

  async 'wallet/history'(body, ctx) {
    const user = requireUser(ctx);
    const realised = await realisedByMonth(ctx.db, user.id);
    return {
      equity: await equitySeries(ctx.db, user.id, body.days ?? EQUITY_MAX_DAYS),
      months: realised.months,
      realisedTotalMinor: realised.totalMinor,
    };
  },

  async 'user/invite'(_body, ctx) {
    return memberInvite(ctx.db, requireUser(ctx).id, ctx.now(), {
      maxUses: ctx.config.inviteMemberMaxUses,
      days: ctx.config.inviteMemberDays,
    });
  },
};
