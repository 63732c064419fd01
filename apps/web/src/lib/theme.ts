import { theme, type ThemeConfig } from 'antd';
import { useSettings } from '@/stores/settings-store';

/** Brand tokens; components read colours through theme.useToken(), never hard-coded. */
const brand = { colorPrimary: '#1677ff', fontSize: 14, borderRadius: 6 };

export function themeConfig(isDark: boolean): ThemeConfig {
  return {
    algorithm: isDark ? theme.darkAlgorithm : theme.defaultAlgorithm,
    token: brand,
    components: { Layout: { headerHeight: 56, headerPadding: '0 16px' } },
  };
}

/** Puts the matching class on <html> and removes the other (SPEC.md §4). */
export function applyThemeClass(isDark: boolean) {
  const root = document.documentElement;
  root.classList.add(isDark ? 'dark' : 'light');
  root.classList.remove(isDark ? 'light' : 'dark');
}

applyThemeClass(useSettings.getState().isDark);
useSettings.subscribe((s, prev) => {
  if (s.isDark !== prev.isDark) applyThemeClass(s.isDark);
});
