import type { Rule } from 'antd/es/form';

/** Trimmed length bounds (the contracts trim before checking); empty passes (`required` says that). */
export const trimmedLength = (min: number, max: number, message: string): Rule => ({
  validator: async (_, v?: string) => {
    const n = (v ?? '').trim().length;
    if (n && (n < min || n > max)) throw new Error(message);
  },
});
