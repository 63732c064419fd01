import i18n from 'i18next';
import type adData from './zh-CN/ad-data';
import type assets from './zh-CN/assets';
import type cron from './zh-CN/cron';
import type hosting from './zh-CN/hosting';
import type launch from './zh-CN/launch';
import type materials from './zh-CN/materials';
import type orders from './zh-CN/orders';
import type publish from './zh-CN/publish';
import type rules from './zh-CN/rules';

/**
 * Namespaces that travel with their screens instead of the eager bundle (the login page never
 * needs them). Their types join the i18next resources in lib/i18n.ts; their texts are added by
 * the `*-namespace.ts` module a screen imports before it renders.
 */
export interface LazyResources {
  adData: typeof adData;
  assets: typeof assets;
  cron: typeof cron;
  hosting: typeof hosting;
  launch: typeof launch;
  materials: typeof materials;
  orders: typeof orders;
  publish: typeof publish;
  rules: typeof rules;
}

/** Adds both languages of a namespace once (importing a namespace module twice is harmless). */
export function registerNamespace<N extends keyof LazyResources>(ns: N, zh: LazyResources[N], en: unknown) {
  if (i18n.hasResourceBundle('zh-CN', ns)) return;
  i18n.addResourceBundle('zh-CN', ns, zh, true, true);
  i18n.addResourceBundle('en', ns, en, true, true);
}
