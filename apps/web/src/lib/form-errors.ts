import type { FormInstance } from 'antd';
import { ApiError } from './api-client';

/**
 * Puts the field errors of a validation failure (API.md: data.errors[].field) on the form's
 * inputs. `rename` maps API field names to form field names (e.g. pwd → password).
 * Returns whether any error landed on a field.
 */
export function applyFieldErrors(form: FormInstance, err: unknown, rename: Record<string, string> = {}): boolean {
  if (!(err instanceof ApiError) || !err.fieldErrors.length) return false;
  const known = new Set(Object.keys(form.getFieldsValue(true) as object));
  const byField = new Map<string, string[]>();
  for (const e of err.fieldErrors) {
    const top = e.field.split('.')[0] ?? e.field;
    const name = rename[top] ?? top;
    if (!known.has(name)) continue;
    byField.set(name, [...(byField.get(name) ?? []), e.message]);
  }
  form.setFields([...byField].map(([name, errors]) => ({ name, errors })));
  return byField.size > 0;
}
