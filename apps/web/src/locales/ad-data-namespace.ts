import { registerNamespace } from './lazy';
import en from './en/ad-data';
import zh from './zh-CN/ad-data';

/** The `adData` namespace (广告数据, its logs and the admin advertising screens); import before use. */
registerNamespace('adData', zh, en);
