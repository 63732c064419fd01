import fs from 'node:fs';
import path from 'node:path';

// One JSON snapshot per data dir, written atomically (temp file + rename) and debounced so a
// burst of writes costs one file write. A lock file keeps a second simulator off the same dir:
// two writers would silently overwrite each other's state.

const SNAPSHOT = 'state.json';
const LOCK = 'meta-sim.lock';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class SnapshotFile {
  private timer: NodeJS.Timeout | undefined;
  private readonly lockPath: string;
  private readonly file: string;

  constructor(
    private readonly dir: string,
    private readonly serialise: () => string,
    private readonly debounceMs = 250,
  ) {
    fs.mkdirSync(dir, { recursive: true });
    this.file = path.join(dir, SNAPSHOT);
    this.lockPath = path.join(dir, LOCK);
    this.acquireLock();
  }

  read(): unknown {
    if (!fs.existsSync(this.file)) return undefined;
    return JSON.parse(fs.readFileSync(this.file, 'utf8'));
  }

  /** Schedules a write; calls within the debounce window share it. */
  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.writeNow();
    }, this.debounceMs);
    this.timer.unref();
  }

  /** Writes any pending change now (shutdown). */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.writeNow();
  }

  close(): void {
    this.flush();
    fs.rmSync(this.lockPath, { force: true });
  }

  private writeNow(): void {
    const tmp = `${this.file}.${process.pid}.tmp`;
    const fd = fs.openSync(tmp, 'w');
    try {
      fs.writeSync(fd, this.serialise());
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, this.file);
  }

  private acquireLock(): void {
    try {
      fs.writeFileSync(this.lockPath, String(process.pid), { flag: 'wx' });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number(fs.readFileSync(this.lockPath, 'utf8').trim());
    // Our own pid means an earlier simulator in this process was not closed (tests): refuse too.
    if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
      throw new Error(`meta-sim: data dir ${this.dir} is in use by process ${holder} (lock file ${this.lockPath})`);
    }
    fs.writeFileSync(this.lockPath, String(process.pid));
  }
}
