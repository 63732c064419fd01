import type { PostRecord } from '../store/state.ts';

// Scheduled page posts (`published=false` + `scheduled_publish_time`): kept apart so that pages
// and videos can both tell whether a post is live without importing each other.

/**
 * How far ahead a post may be scheduled. Meta's Pages API guide: between 10 minutes and 30 days
 * from the request [U: older Graph references said six months; the stricter window is enforced].
 */
export const SCHEDULE_MIN_MS = 10 * 60_000;
export const SCHEDULE_MAX_MS = 30 * 86_400_000;

/** Published now: made published, or scheduled and its time has come (the clock moves it on, no job needed). */
export function postPublished(p: PostRecord, now: number): boolean {
  return p.is_published || (p.scheduled_publish_time !== undefined && now >= p.scheduled_publish_time);
}
