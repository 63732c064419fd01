import './hosting-namespace';
import { registerNamespace } from './lazy';
import en from './en/rules';
import zh from './zh-CN/rules';

/** The `rules` namespace (广告托管: 规则, 历史, 通知渠道); import before use. */
registerNamespace('rules', zh, en);
