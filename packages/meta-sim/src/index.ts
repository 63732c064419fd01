// @ads/meta-sim: a loopback simulator of the Meta Marketing (Graph) API subset the product uses.
export { startSimulator, type Simulator, type SimulatorOptions } from './simulator.ts';
export type { WebhookEvent as OrderEvent } from './webhooks/schedule.ts';
