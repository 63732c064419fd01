import './assets-namespace';
import { registerNamespace } from './lazy';
import en from './en/hosting';
import zh from './zh-CN/hosting';

/** The `hosting` namespace (托管管理; its tables also use `assets` words); import before use. */
registerNamespace('hosting', zh, en);
