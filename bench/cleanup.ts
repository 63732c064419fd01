import fs from 'node:fs';
import type { ChildProcess } from 'node:child_process';

/**
 * Everything the run must undo: child processes, temp dirs, databases, browsers.
 * Undone in reverse order, once, whether the run succeeds, throws or is interrupted.
 */
type Step = { name: string; run: () => Promise<void> };

const steps: Step[] = [];
const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();
let running: Promise<void> | null = null;

export interface CleanupHandle {
  /** Runs the step now (once) and unregisters it. */
  now: () => Promise<void>;
  /** Unregisters the step without running it (the thing ended by itself). */
  forget: () => void;
}

/** Registers an async undo step. */
export function onCleanup(name: string, run: () => Promise<void>): CleanupHandle {
  const step: Step = { name, run };
  steps.push(step);
  const forget = () => {
    const i = steps.indexOf(step);
    if (i >= 0) steps.splice(i, 1);
  };
  return {
    forget,
    now: async () => {
      if (!steps.includes(step)) return;
      forget();
      await run();
    },
  };
}

/** Tracks a child so that even a synchronous exit kills it. */
export function trackChild(child: ChildProcess): void {
  children.add(child);
  child.once('exit', () => children.delete(child));
}

/** Tracks a temp dir so that even a synchronous exit removes it. */
export function trackTempDir(dir: string): void {
  tempDirs.add(dir);
}

export function removeTempDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

/** Runs every registered step (latest first), each bounded, logging failures instead of throwing. */
export function cleanupAll(): Promise<void> {
  running ??= (async () => {
    while (steps.length) {
      const step = steps.pop()!;
      try {
        await withTimeout(step.run(), 20_000, `cleanup: ${step.name}`);
      } catch (err) {
        console.error(`cleanup "${step.name}" failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    killChildrenNow();
    for (const dir of [...tempDirs]) removeTempDir(dir);
  })();
  return running;
}

function killChildrenNow(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  children.clear();
}

/** Installs the signal and exit handlers. Call once, first thing. */
export function installCleanupHandlers(): void {
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: stopping, cleaning up…`);
    void cleanupAll().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  // Last resort if something calls process.exit before the async steps ran.
  process.on('exit', () => {
    killChildrenNow();
    for (const dir of [...tempDirs]) {
      try {
        removeTempDir(dir);
      } catch {
        // nothing more can be done while exiting
      }
    }
  });
}

export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
