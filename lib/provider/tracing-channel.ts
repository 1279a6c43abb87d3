import diagnostics from "node:diagnostics_channel";

/**
 * The AI SDK publishes every model call and tool call on a diagnostics tracing channel unless the
 * channel reports that nobody listens (`hasSubscribers === false`). Bun's TracingChannel has no
 * `hasSubscribers`, so the SDK read `undefined` as "someone may" and, at every step, took its
 * tracing path for no listener: async contexts, and copies of the step's results with credentials
 * redacted (every tool definition, the request body). This gives Bun's TracingChannel the getter
 * Node's has: true when any of its five channels has a subscriber. Nothing changes for a process
 * that does subscribe. Called before the first model is built; a runtime that has the getter is left alone.
 */
export function fillTracingChannelGap(): void {
  const proto = Object.getPrototypeOf(diagnostics.tracingChannel("shiro:probe")) as object;
  if ("hasSubscribers" in proto) return;
  Object.defineProperty(proto, "hasSubscribers", {
    configurable: true,
    get(this: Record<"start" | "end" | "asyncStart" | "asyncEnd" | "error", diagnostics.Channel>) {
      return this.start.hasSubscribers || this.end.hasSubscribers || this.asyncStart.hasSubscribers || this.asyncEnd.hasSubscribers || this.error.hasSubscribers;
    },
  });
}

/**
 * Passed as `telemetry` to every SDK call. shiro registers no telemetry integration and nothing
 * subscribes to the SDK's tracing channel, but with telemetry on the SDK still builds, at every
 * step and every tool call, an "augmented" copy of the event for them (the request's tools and
 * messages, credentials redacted) before it learns that nobody listens. Off, it skips all of it.
 */
export const TELEMETRY_OFF = { isEnabled: false } as const;
