import { create } from 'zustand';
import { persist } from 'zustand/middleware';

export type Locale = 'zh-cn' | 'en';

interface Settings {
  isDark: boolean;
  locale: Locale;
  toggleDark: () => void;
  setLocale: (locale: Locale) => void;
}

/** Theme and language (SPEC.md §3): persisted under "settings", light and zh-cn by default. */
export const useSettings = create<Settings>()(
  persist(
    (set) => ({
      isDark: false,
      locale: 'zh-cn',
      toggleDark: () => set((s) => ({ isDark: !s.isDark })),
      setLocale: (locale) => set({ locale }),
    }),
    { name: 'settings', version: 1, partialize: (s) => ({ isDark: s.isDark, locale: s.locale }) },
  ),
);
