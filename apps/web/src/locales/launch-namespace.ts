import { registerNamespace } from './lazy';
import en from './en/launch';
import zh from './zh-CN/launch';

/** The `launch` namespace (帖子管理 and 启动管理); import before use. */
registerNamespace('launch', zh, en);
