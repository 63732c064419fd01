// `npm run sim`: the simulator alone, configured from the environment.
import path from 'node:path';
import { startSimulator } from './simulator.ts';

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

const sim = await startSimulator({
  port: intFromEnv('META_SIM_PORT', 4010),
  host: process.env.META_SIM_HOST || '127.0.0.1',
  dataDir: path.resolve(process.env.META_SIM_DATA_DIR || './data/meta-sim'),
  seed: intFromEnv('META_SIM_SEED', 1),
  appId: process.env.META_APP_ID || undefined,
  appSecret: process.env.META_APP_SECRET || undefined,
  logLevel: process.env.LOG_LEVEL || 'info',
});
console.warn(`meta-sim: Graph API simulator on ${sim.url}/v25.0/ (control API ${sim.url}/__sim/, app id ${sim.appId})`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.warn(`meta-sim: ${signal}, writing the snapshot and stopping`);
  await sim.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
