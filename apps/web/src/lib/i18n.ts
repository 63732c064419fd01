import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/en';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '@/locales/en';
import type { LazyResources } from '@/locales/lazy';
import zh from '@/locales/zh-CN';
import { useSettings, type Locale } from '@/stores/settings-store';

export const namespaces = Object.keys(zh) as (keyof typeof zh)[];

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    /** The eager namespaces plus those loaded with their screens (locales/lazy.ts). */
    resources: typeof zh & LazyResources;
  }
}

const toI18n = (locale: Locale) => (locale === 'en' ? 'en' : 'zh-CN');

void i18n.use(initReactI18next).init({
  resources: { 'zh-CN': zh, en },
  lng: toI18n(useSettings.getState().locale),
  fallbackLng: 'zh-CN',
  ns: namespaces,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** Moves the interface language, dayjs and the html lang together (SPEC.md §4). */
export function applyLocale(locale: Locale) {
  dayjs.locale(locale === 'en' ? 'en' : 'zh-cn');
  void i18n.changeLanguage(toI18n(locale));
  document.documentElement.lang = locale === 'en' ? 'en' : 'zh-CN';
}

applyLocale(useSettings.getState().locale);
useSettings.subscribe((s, prev) => {
  if (s.locale !== prev.locale) applyLocale(s.locale);
});

/** The Accept-Language the API should answer in. */
export const acceptLanguage = () => (useSettings.getState().locale === 'en' ? 'en' : 'zh-CN');

export default i18n;
