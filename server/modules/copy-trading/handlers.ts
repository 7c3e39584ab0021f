/**
 * mentor/*, follow/* (member) and admin/mentors, admin/approveMentor, admin/rejectMentor,
 * admin/mentorSettings (operator) handlers: thin wrappers over mentors.ts and follows.ts.
 * Route names of the spec's screens (/gdindex/gdindex, gdList, dsFllow, dsFllowInfo,
 * dsFllowRecord) map to mentor/list, mentor/info, follow/start, follow/list and follow/records
 * (docs/glossary.md).
 */
import { requireUser, type Ctx, type Handlers } from '../common/context';
import { fail } from '../common/errors';
import { audit } from '../common/audit';
import { mentors } from '../../db/schema';
import { eq } from 'drizzle-orm';
import {
  adminFollows,
  copyOrders,
  followRecords,
  memberFollows,
  setPaused,
  startFollow,
  toFollowDto,
} from './follows';
import { minFollow } from './min-follow';
import type { CopyDeps } from './pool';
import { endFollow } from './stop';
import {
  adminMentors,
  applyAsMentor,
  criteriaOf,
  latestMentorRow,
  listMentors,
  reviewMentor,
  saveMentorSettings,
  toMentorDto,
} from './mentors';

type Endpoints =
  | 'mentor/status'
  | 'mentor/apply'
  | 'mentor/list'
  | 'mentor/info'
  | 'mentor/minFollow'
  | 'follow/start'
  | 'follow/pause'
  | 'follow/resume'
  | 'follow/stop'
  | 'follow/list'
  | 'follow/records'
  | 'follow/copyOrders'
  | 'admin/mentors'
  | 'admin/approveMentor'
  | 'admin/rejectMentor'
  | 'admin/mentorSettings'
  | 'admin/follows'
  | 'admin/followRecords'
  | 'admin/cancelFollow';

const depsOf = (ctx: Ctx): CopyDeps => ({ db: ctx.db, trading: ctx.trading, feed: ctx.feed, now: ctx.now });

export const copyTradingHandlers: Pick<Handlers, Endpoints> = {
  /** The caller's latest mentor application and their standing against the criteria. */
  async 'mentor/status'(_body, ctx) {
    const user = requireUser(ctx);
    const row = await latestMentorRow(ctx.db, user.id);
    return {
      mentor: row ? await toMentorDto(ctx.db, row, ctx.now()) : null,
      criteria: await criteriaOf(ctx.db, user.id, ctx.now(), ctx.config.mentorMinAccountDays),
    };
  },
  /** @throws mentorAlreadyApplied, mentorCriteriaNotMet (409), cannotWithdrawOrTrade (403) */
  async 'mentor/apply'(_body, ctx) {
    const user = requireUser(ctx);
    const row = await applyAsMentor(ctx.db, user, ctx.now(), ctx.config.mentorMinAccountDays);
    return toMentorDto(ctx.db, row, ctx.now());
  },
  async 'mentor/list'(body, ctx) {
    return listMentors(ctx.db, body, ctx.now());
  },
  /** An approved mentor. @throws notFound (404) */
  async 'mentor/info'(body, ctx) {
    const [row] = await ctx.db.select().from(mentors).where(eq(mentors.id, body.mentorId));
    if (!row || row.status !== 'approved') throw fail('notFound');
    return toMentorDto(ctx.db, row, ctx.now());
  },
  /** The smallest amount that would have copied each of the mentor's recent orders. @throws notFound */
  async 'mentor/minFollow'(body, ctx) {
    return minFollow(ctx.db, body.mentorId, ctx.now());
  },
  /** @throws mentorNotApproved, cannotFollowSelf (409), belowMinFollow (422), insufficientBalance */
  async 'follow/start'(body, ctx) {
    const user = requireUser(ctx);
    return toFollowDto(ctx.db, await startFollow(ctx.db, user, body, ctx.now()));
  },
  async 'follow/pause'(body, ctx) {
    const user = requireUser(ctx);
    return toFollowDto(ctx.db, await setPaused(ctx.db, user.id, body.followId, true));
  },
  async 'follow/resume'(body, ctx) {
    const user = requireUser(ctx);
    return toFollowDto(ctx.db, await setPaused(ctx.db, user.id, body.followId, false));
  },
  /** Closes the copies (each settling its profit share) and returns the cash. @throws notFound, followNotRunning, followHasOpenCopies */
  async 'follow/stop'(body, ctx) {
    const user = requireUser(ctx);
    return toFollowDto(ctx.db, await endFollow(depsOf(ctx), body.followId, 'member', user.id));
  },
  async 'follow/list'(body, ctx) {
    const user = requireUser(ctx);
    return memberFollows(ctx.db, user.id, body.page, body.pageSize);
  },
  /** One follow's records, or all the member's follows' records without a followId. @throws notFound */
  async 'follow/records'(body, ctx) {
    const user = requireUser(ctx);
    return followRecords(ctx.db, user.id, body);
  },
  async 'follow/copyOrders'(body, ctx) {
    const user = requireUser(ctx);
    return copyOrders(ctx.db, user.id, body.orderIds);
  },
  async 'admin/mentors'(body, ctx) {
    return adminMentors(ctx.db, body, ctx.now());
  },
  /** @throws notFound, selfReview (403), mentorNotPending (409) */
  async 'admin/approveMentor'(body, ctx) {
    const op = requireUser(ctx);
    return reviewMentor(ctx.db, {
      id: body.id,
      operatorId: op.id,
      decision: 'approved',
      reason: null,
      nowMs: ctx.now(),
    });
  },
  /** @throws notFound, selfReview (403), mentorNotPending (409) */
  async 'admin/rejectMentor'(body, ctx) {
    const op = requireUser(ctx);
    return reviewMentor(ctx.db, {
      id: body.id,
      operatorId: op.id,
      decision: 'rejected',
      reason: body.reason,
      nowMs: ctx.now(),
    });
  },
  async 'admin/follows'(body, ctx) {
    return adminFollows(ctx.db, body);
  },
  async 'admin/followRecords'(body, ctx) {
    return followRecords(ctx.db, null, { followId: body.id, page: body.page, pageSize: body.pageSize });
  },
  /**
   * Ends a follow as `cancelled` (copies closed, profit share and return as on a stop), audited
   * `follow.cancel` with the reason. @throws notFound, followNotRunning, followHasOpenCopies
   */
  async 'admin/cancelFollow'(body, ctx) {
    const op = requireUser(ctx);
    const row = await endFollow(depsOf(ctx), body.id, 'operator');
    await ctx.db.transaction((tx) =>
      audit(tx, {
        actorUserId: op.id,
        action: 'follow.cancel',
        targetType: 'follow',
        targetId: body.id,
        after: {
          status: row.status,
          returnedMinor: row.returnedMinor,
          profitShareMinor: row.profitShareMinor,
        },
        reason: body.reason,
      }),
    );
    return toFollowDto(ctx.db, row);
  },
  async 'admin/mentorSettings'(body, ctx) {
    const op = requireUser(ctx);
    return saveMentorSettings(ctx.db, { ...body, operatorId: op.id, nowMs: ctx.now() });
  },
};
