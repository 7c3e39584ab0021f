/**
 * Follow orders (跟單; product-spec §2 "Follow orders"): the spec's five routes, one file each,
 * re-exported here so src/app/screens.ts loads them as one lazy chunk.
 * - /gdindex/gdindex: mentors by level (mentor-list.tsx);
 * - /gdindex/gdList: one mentor's figures (mentor-info.tsx);
 * - /gdindex/dsFllow: the follow form (follow-form.tsx);
 * - /gdindex/dsFllowInfo: the member's follows with pause, resume and stop (follow-info.tsx);
 * - /gdindex/dsFllowRecord: one follow's records, or all of them without an id (follow-record.tsx);
 * - /gdindex/mentorApply: the mentor application with criteria and progress (mentor-apply.tsx).
 * Shared pieces: ../components/follow-shared.tsx.
 */
export { FollowFormPage } from './follow-form';
export { FollowInfoPage } from './follow-info';
export { FollowRecordPage } from './follow-record';
export { MentorApplyPage } from './mentor-apply';
export { MentorInfoPage } from './mentor-info';
export { MentorListPage } from './mentor-list';
