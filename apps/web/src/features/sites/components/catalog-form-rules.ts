import type { Rule } from 'antd/es/form';

/** An absolute http(s) URL, or nothing. */
export const urlRule = (message: string): Rule => ({
  validator: async (_, v?: string) => {
    const s = (v ?? '').trim();
    if (!s) return;
    try {
      const u = new URL(s);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
    } catch {
      throw new Error(message);
    }
  },
});

/** Tags: at most 30, each 1–32 characters. */
export const tagsRule = (message: string): Rule => ({
  validator: async (_, v?: string[]) => {
    const tags = (v ?? []).map((s) => s.trim()).filter(Boolean);
    if (tags.length > 30 || tags.some((s) => s.length > 32)) throw new Error(message);
  },
});

export const cleanTags = (v: string[] | undefined) => [...new Set((v ?? []).map((s) => s.trim()).filter(Boolean))];
