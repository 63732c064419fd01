/** Persisted form of the simulator clock. */
export interface ClockState {
  /** Sim time (ms) at the anchor. */
  anchorSimMs: number;
  /** Real time (ms) at the anchor. */
  anchorRealMs: number;
  /** Sim milliseconds per real millisecond; 0 freezes the clock (tests). */
  speed: number;
}

/**
 * The simulator clock: sim time = anchor + (real elapsed × speed). Everything time-based
 * (delivery, review, video processing, token expiry, rate-limit windows) reads it, so tests
 * move it instead of sleeping. It never goes backwards: recorded history (status changes,
 * spend) would otherwise describe a future that already happened.
 */
export class SimClock {
  private state: ClockState;
  private readonly listeners: Array<() => void> = [];

  constructor(
    initial: ClockState,
    private readonly realNow: () => number = Date.now,
  ) {
    this.state = { ...initial };
  }

  static startingAt(simMs: number, speed = 1, realNow: () => number = Date.now): SimClock {
    return new SimClock({ anchorSimMs: simMs, anchorRealMs: realNow(), speed }, realNow);
  }

  /**
   * Restores a persisted clock. Downtime between the snapshot and now passes at speed 1 at
   * most, so a demo left at ×3600 overnight does not wake up a year later (and a frozen clock
   * stays frozen).
   */
  static restore(saved: ClockState & { savedAtRealMs: number }, realNow: () => number = Date.now): SimClock {
    const simAtSave = saved.anchorSimMs + (saved.savedAtRealMs - saved.anchorRealMs) * saved.speed;
    const now = realNow();
    return new SimClock({ anchorSimMs: simAtSave + Math.max(0, now - saved.savedAtRealMs) * Math.min(1, saved.speed), anchorRealMs: now, speed: saved.speed }, realNow);
  }

  now(): number {
    return Math.floor(this.state.anchorSimMs + (this.realNow() - this.state.anchorRealMs) * this.state.speed);
  }

  get speed(): number {
    return this.state.speed;
  }

  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('the clock only moves forward');
    this.reanchor(this.now() + ms, this.state.speed);
  }

  set(simMs: number): void {
    if (simMs < this.now()) throw new RangeError('the clock only moves forward');
    this.reanchor(simMs, this.state.speed);
  }

  setSpeed(speed: number): void {
    if (!(speed >= 0) || speed > 1_000_000) throw new RangeError('speed must be between 0 (frozen) and 1000000');
    this.reanchor(this.now(), speed);
  }

  /** Called after every explicit change (not on the passing of time). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  snapshot(): ClockState & { savedAtRealMs: number } {
    return { ...this.state, savedAtRealMs: this.realNow() };
  }

  private reanchor(simMs: number, speed: number): void {
    this.state = { anchorSimMs: simMs, anchorRealMs: this.realNow(), speed };
    for (const listener of this.listeners) listener();
  }
}
