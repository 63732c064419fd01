import './assets-namespace';
import { registerNamespace } from './lazy';
import en from './en/materials';
import zh from './zh-CN/materials';

/** The `materials` namespace (素材管理; its tables also use `assets` words); import before use. */
registerNamespace('materials', zh, en);
