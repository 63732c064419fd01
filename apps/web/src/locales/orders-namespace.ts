import { registerNamespace } from './lazy';
import en from './en/orders';
import zh from './zh-CN/orders';

/** The `orders` namespace (订单列表, 订单分析); import before use. */
registerNamespace('orders', zh, en);
