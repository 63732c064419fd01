import { issueMessage } from '@ads/contracts';
import type { FormInstance } from 'antd';
import type { z } from 'zod';
import type { Lang } from './rule-format';

type Path = (string | number)[];

/** Form values → a body: empty inputs (null, '') become absent so the contract names them "required". */
export function cleanValues(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(cleanValues);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== null && x !== undefined && x !== '') out[k] = cleanValues(x);
    return out;
  }
  return v;
}

/**
 * Puts the contract's messages for `issues` beside the form fields at their paths (clearing the
 * previous ones) and answers the paths set and the distinct messages.
 */
export function showIssues(form: FormInstance, issues: readonly z.core.$ZodIssue[], lang: Lang, previous: Path[]): { paths: Path[]; messages: string[] } {
  form.setFields(previous.map((p) => ({ name: p, errors: [] })));
  const byPath = new Map<string, { path: Path; errors: string[] }>();
  for (const issue of issues) {
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    const key = path.join('.');
    const entry = byPath.get(key) ?? { path, errors: [] };
    entry.errors.push(issueMessage(issue as unknown as Parameters<typeof issueMessage>[0], lang));
    byPath.set(key, entry);
  }
  const entries = [...byPath.values()];
  form.setFields(entries.map((e) => ({ name: e.path, errors: e.errors })));
  return { paths: entries.map((e) => e.path), messages: [...new Set(entries.flatMap((e) => e.errors))] };
}
