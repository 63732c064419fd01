import './assets-namespace';
import { registerNamespace } from './lazy';
import en from './en/cron';
import zh from './zh-CN/cron';

/** The `cron` namespace (系统管理 / 定时任务; its run statuses use `assets` words); import before use. */
registerNamespace('cron', zh, en);
