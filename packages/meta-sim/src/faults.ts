import { randomUUID } from 'node:crypto';
import { GraphError } from './errors.ts';

// Fault injection (reference §18.8): rules that make the next N matching Graph calls fail,
// slow down, hang or lose their connection. Matched on the version-less path, e.g.
// `/act_*/campaigns`; `*` matches any run of characters.

export interface FaultRuleInput {
  /** Glob on the path without the version (`/act_123/insights`, `/act_*`, `*`). Default: any. */
  path?: string;
  method?: 'GET' | 'POST' | 'DELETE';
  /** How many calls the rule applies to; null = until cleared. Default 1. */
  count?: number | null;
  /** Answer with this Graph error. */
  error?: { code: number; error_subcode?: number; http_status?: number; message?: string; is_transient?: boolean; error_user_title?: string; error_user_msg?: string };
  /** Real milliseconds to wait before answering (or before the other effect). */
  latency_ms?: number;
  /** Hang without answering until the client gives up, at most this long, then drop. */
  timeout_ms?: number;
  /** Destroy the socket without an answer. */
  drop?: boolean;
  /**
   * Carry the call out (objects are created, changes made), then lose the answer: the socket is
   * destroyed, or with `timeout_ms` left hanging that long first. The client sees a network
   * error or a timeout although the call took effect, so it must look up before retrying.
   * In a batch the item is applied and answers `null`.
   */
  apply_then_drop?: boolean;
  /** Make the next async report run end in `Job Failed` (matched on report creation). */
  fail_report?: boolean;
}

export interface FaultRule extends FaultRuleInput {
  id: string;
  remaining: number | null;
  matcher: RegExp;
}

export type FaultEffect =
  | { kind: 'error'; error: GraphError; latencyMs: number }
  | { kind: 'latency'; latencyMs: number }
  | { kind: 'timeout'; latencyMs: number; maxMs: number }
  | { kind: 'drop'; latencyMs: number }
  | { kind: 'apply_then_drop'; latencyMs: number; hangMs: number }
  | { kind: 'fail_report'; latencyMs: number };

/** Upper bound of a simulated hang, so a forgotten rule cannot hold sockets forever. */
export const MAX_TIMEOUT_MS = 120_000;

function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

export class FaultInjector {
  private rules: FaultRule[] = [];

  add(input: FaultRuleInput): FaultRule {
    const effects = [input.error, input.timeout_ms, input.drop, input.apply_then_drop, input.fail_report, input.latency_ms].filter((e) => e !== undefined && e !== false);
    if (effects.length === 0) throw new RangeError('a fault needs error, latency_ms, timeout_ms, drop, apply_then_drop or fail_report');
    if (input.apply_then_drop && (input.error || input.drop || input.fail_report)) throw new RangeError('apply_then_drop combines with latency_ms and timeout_ms only');
    if (input.error && !Number.isInteger(input.error.code)) throw new RangeError('error.code must be an integer');
    let path = input.path ?? '*';
    if (!path.startsWith('/') && path !== '*') path = `/${path}`;
    const rule: FaultRule = {
      ...input,
      path,
      id: randomUUID(),
      remaining: input.count === null ? null : Math.max(1, input.count ?? 1),
      matcher: globToRegExp(path),
    };
    this.rules.push(rule);
    return rule;
  }

  list(): FaultRule[] {
    return this.rules;
  }

  clear(): void {
    this.rules = [];
  }

  /**
   * Consumes the first rule matching the call and returns its effect. `fail_report` rules
   * match only report-run creation (`isReportCreation`), and no other rule matches that.
   */
  take(method: string, path: string, isReportCreation = false): FaultEffect | undefined {
    const idx = this.rules.findIndex(
      (r) => (!r.method || r.method === method) && r.matcher.test(path) && Boolean(r.fail_report) === isReportCreation,
    );
    if (idx < 0) return undefined;
    const rule = this.rules[idx]!;
    if (rule.remaining !== null) {
      rule.remaining -= 1;
      if (rule.remaining <= 0) this.rules.splice(idx, 1);
    }
    const latencyMs = Math.max(0, rule.latency_ms ?? 0);
    if (rule.apply_then_drop) {
      return { kind: 'apply_then_drop', latencyMs, hangMs: Math.min(Math.max(0, rule.timeout_ms ?? 0), MAX_TIMEOUT_MS) };
    }
    if (rule.drop) return { kind: 'drop', latencyMs };
    if (rule.timeout_ms !== undefined) return { kind: 'timeout', latencyMs, maxMs: Math.min(Math.max(0, rule.timeout_ms), MAX_TIMEOUT_MS) };
    if (rule.fail_report) return { kind: 'fail_report', latencyMs };
    if (rule.error) {
      const e = rule.error;
      const error = new GraphError({
        code: e.code,
        subcode: e.error_subcode,
        message: e.message ?? `(#${e.code}) Simulated failure`,
        httpStatus: e.http_status,
        isTransient: e.is_transient ?? [1, 2, 4, 17, 32, 341, 613].includes(e.code),
        userTitle: e.error_user_title,
        userMsg: e.error_user_msg,
      });
      return { kind: 'error', error, latencyMs };
    }
    return { kind: 'latency', latencyMs };
  }
}
