import { errors } from '../errors.ts';
import { parseGraphTime } from '../time.ts';

// Request parameters arrive as query strings, form fields, multipart fields or JSON bodies;
// object-valued parameters usually come as JSON text inside a form field (reference §0).
// Params gives handlers one typed view over all of them.

/** A file part of a multipart request. Only a short head of the bytes is kept. */
export interface UploadedFile {
  field: string;
  filename: string;
  mimetype: string;
  size: number;
  md5: string;
  /** The first bytes (enough to read image dimensions); never the whole upload. */
  head: Buffer;
}

export class Params {
  constructor(private readonly raw: Record<string, unknown>) {}

  has(name: string): boolean {
    const v = this.raw[name];
    return v !== undefined && v !== null;
  }

  names(): string[] {
    return Object.keys(this.raw).filter((k) => this.has(k));
  }

  /** The raw value (string for form/query input, any JSON value for JSON bodies). */
  value(name: string): unknown {
    return this.raw[name];
  }

  string(name: string): string | undefined {
    const v = this.raw[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    throw errors.invalidParameter(`Param ${name} must be a string`, { data: { blame_field_specs: [[name]] } });
  }

  requiredString(name: string): string {
    const v = this.string(name);
    if (v === undefined || v.trim() === '') throw errors.requiredParameter(name);
    return v;
  }

  /** Non-negative integer (budgets and bids in minor units arrive as numeric strings). */
  uint(name: string): number | undefined {
    const v = this.raw[name];
    if (v === undefined || v === null || v === '') return undefined;
    const n = typeof v === 'number' ? v : Number(String(v).trim());
    if (!Number.isInteger(n) || n < 0) {
      throw errors.invalidParameter(`Param ${name} must be a non-negative integer`, { data: { blame_field_specs: [[name]] } });
    }
    return n;
  }

  number(name: string): number | undefined {
    const v = this.raw[name];
    if (v === undefined || v === null || v === '') return undefined;
    const n = typeof v === 'number' ? v : Number(String(v).trim());
    if (!Number.isFinite(n)) throw errors.invalidParameter(`Param ${name} must be a number`, { data: { blame_field_specs: [[name]] } });
    return n;
  }

  bool(name: string): boolean | undefined {
    const v = this.raw[name];
    if (v === undefined || v === null || v === '') return undefined;
    if (v === true || v === 'true' || v === '1' || v === 1) return true;
    if (v === false || v === 'false' || v === '0' || v === 0) return false;
    throw errors.invalidParameter(`Param ${name} must be a boolean`, { data: { blame_field_specs: [[name]] } });
  }

  /** A JSON-valued parameter: parsed from JSON text, or taken as is from a JSON body. */
  json(name: string): unknown {
    const v = this.raw[name];
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v);
    } catch {
      throw errors.invalidParameter(`Param ${name} must be a JSON encoded value`, { data: { blame_field_specs: [[name]] } });
    }
  }

  object(name: string): Record<string, unknown> | undefined {
    const v = this.json(name);
    if (v === undefined) return undefined;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      throw errors.invalidParameter(`Param ${name} must be a JSON object`, { data: { blame_field_specs: [[name]] } });
    }
    return v as Record<string, unknown>;
  }

  /** A list: JSON array text, a JSON array, or (as the Graph API tolerates) a comma list. */
  list(name: string): string[] | undefined {
    const v = this.raw[name];
    if (v === undefined || v === null || v === '') return undefined;
    if (Array.isArray(v)) return v.map(String);
    const text = String(v).trim();
    if (text.startsWith('[')) {
      const parsed = this.json(name);
      if (!Array.isArray(parsed)) throw errors.invalidParameter(`Param ${name} must be an array`);
      return parsed.map(String);
    }
    return text.split(',').map((s) => s.trim()).filter(Boolean);
  }

  /** A datetime parameter (ISO or unix seconds) as epoch ms. */
  time(name: string): number | undefined {
    const v = this.raw[name];
    if (v === undefined || v === null || v === '' || v === '0' || v === 0) return undefined;
    const ms = parseGraphTime(v);
    if (ms === undefined) throw errors.invalidParameter(`Param ${name} must be a valid datetime`, { data: { blame_field_specs: [[name]] } });
    return ms;
  }

  enumValue<T extends string>(name: string, values: readonly T[]): T | undefined {
    const v = this.string(name);
    if (v === undefined) return undefined;
    if (!(values as readonly string[]).includes(v)) throw errors.invalidEnum(name, values);
    return v as T;
  }

  /** A copy with some parameters replaced (used by field-expansion modifiers). */
  with(extra: Record<string, unknown>): Params {
    return new Params({ ...this.raw, ...extra });
  }

  toRecord(): Record<string, unknown> {
    return { ...this.raw };
  }
}

/** One entry of a `fields=` selection: `insights.date_preset(last_7d){spend}`. */
export interface FieldSelection {
  name: string;
  modifiers: Record<string, string>;
  children: FieldSelection[] | undefined;
}

/** Splits at top-level commas, ignoring commas inside (), {}, [] and quotes. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"' && text[i - 1] !== '\\') quote = !quote;
    if (quote) continue;
    if (ch === '(' || ch === '{' || ch === '[') depth++;
    else if (ch === ')' || ch === '}' || ch === ']') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** Index of the bracket closing the one at `open`, honouring nesting. */
function closing(text: string, open: number): number {
  const pairs: Record<string, string> = { '(': ')', '{': '}', '[': ']' };
  const stack: string[] = [];
  let quote = false;
  for (let i = open; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"' && text[i - 1] !== '\\') quote = !quote;
    if (quote) continue;
    if (pairs[ch]) stack.push(pairs[ch]);
    else if (ch === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return i;
    }
  }
  throw errors.invalidParameter(`Syntax error in fields: unbalanced brackets in "${text}"`);
}

/** Parses the Graph `fields` syntax, including `.modifier(value)` and `{subfields}`. */
export function parseFields(text: string | undefined): FieldSelection[] | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  return splitTopLevel(text).map((item) => {
    const nameMatch = /^[A-Za-z0-9_]+/.exec(item);
    if (!nameMatch) throw errors.invalidParameter(`Syntax error "${item}" in fields`);
    const selection: FieldSelection = { name: nameMatch[0], modifiers: {}, children: undefined };
    let i = nameMatch[0].length;
    while (i < item.length) {
      const ch = item[i];
      if (ch === '.') {
        const mod = /^\.([A-Za-z0-9_]+)\(/.exec(item.slice(i));
        if (!mod) throw errors.invalidParameter(`Syntax error "${item}" in fields`);
        const open = i + mod[0].length - 1;
        const end = closing(item, open);
        selection.modifiers[mod[1]!] = item.slice(open + 1, end);
        i = end + 1;
      } else if (ch === '{') {
        const end = closing(item, i);
        selection.children = parseFields(item.slice(i + 1, end)) ?? [];
        i = end + 1;
      } else {
        throw errors.invalidParameter(`Syntax error "${item}" in fields`);
      }
    }
    return selection;
  });
}

/** Builds selections from plain names (for defaults). */
export function selectionOf(names: readonly string[]): FieldSelection[] {
  return names.map((name) => ({ name, modifiers: {}, children: undefined }));
}
