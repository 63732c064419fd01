import { registerNamespace } from './lazy';
import en from './en/publish';
import zh from './zh-CN/publish';

/** The `publish` namespace (短剧发布 / 电商发布: the wizard, schemes and templates); import before use. */
registerNamespace('publish', zh, en);
