import { registerNamespace } from './lazy';
import en from './en/assets';
import zh from './zh-CN/assets';

/** The `assets` namespace (授权管理 screens and their shared components); import before use. */
registerNamespace('assets', zh, en);
