/** How long a change may wait before it is written. */
export const AUTOSAVE_DEBOUNCE_MS = 400;

export type Timers = {
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
};

const systemTimers: Timers = {
  setTimeout: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    // A pending save must not keep the process alive; exit handlers flush instead.
    (handle as { unref?: () => void }).unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export type AutosaverOptions = {
  /** Writes the current state. Synchronous (exit handlers cannot wait). May throw. */
  save: () => void;
  /**
   * The timer's save, when it may take its time (the session file's is written in the thread
   * pool: session-file.ts). Rejects on failure: the change is then pending again, for the next save.
   * Without it, the timer calls `save`.
   */
  saveLater?: () => Promise<void>;
  /** False while there is nothing worth writing (a session with no messages is never written). */
  shouldSave?: () => boolean;
  debounceMs?: number;
  timers?: Timers;
  /** Where a failed timed save is reported; the change stays pending so the next save retries. */
  onError?: (error: unknown) => void;
};

export type Autosaver = {
  /** Marks the state changed; it is written at most `debounceMs` later. Cheap: call it every step. */
  schedule(): void;
  /**
   * Writes a pending change now, synchronously (for /save, exit and SIGINT/SIGTERM handlers).
   * Returns true if it wrote. Throws what `save` throws; the change then stays pending.
   */
  flush(): boolean;
  /** Cancels any pending write without writing it. Later calls do nothing. */
  dispose(): void;
  readonly pending: boolean;
};

/**
 * Debounced saving, off the step's critical path: a step only marks the state dirty; the write
 * happens on a timer. The first change arms the timer and later ones ride along rather than
 * pushing it back, so a tool loop stepping every 100 ms still saves every 400 ms instead of
 * never (a crash loses at most `debounceMs` of work).
 */
export function createAutosaver(opts: AutosaverOptions): Autosaver {
  const timers = opts.timers ?? systemTimers;
  const delay = opts.debounceMs ?? AUTOSAVE_DEBOUNCE_MS;
  let dirty = false;
  let disposed = false;
  let timer: unknown;

  function cancelTimer() {
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = undefined;
  }

  function write(): boolean {
    if (!dirty || disposed) return false;
    if (opts.shouldSave && !opts.shouldSave()) return false;
    dirty = false;
    try {
      opts.save();
    } catch (error) {
      dirty = true;
      throw error;
    }
    return true;
  }

  return {
    schedule() {
      if (disposed) return;
      dirty = true;
      if (timer !== undefined) return;
      timer = timers.setTimeout(() => {
        timer = undefined;
        if (opts.saveLater) {
          if (!dirty || disposed || (opts.shouldSave && !opts.shouldSave())) return;
          dirty = false;
          opts.saveLater().catch((error: unknown) => {
            dirty = true;
            opts.onError?.(error);
          });
          return;
        }
        try {
          write();
        } catch (error) {
          opts.onError?.(error);
        }
      }, delay);
    },
    flush() {
      cancelTimer();
      return write();
    },
    dispose() {
      cancelTimer();
      disposed = true;
    },
    get pending() {
      return dirty && !disposed;
    },
  };
}
