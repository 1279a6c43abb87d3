// Bun's TracingChannel lacks `hasSubscribers`, which the AI SDK reads to skip its tracing work.
import { expect, test } from "bun:test";
import diagnostics from "node:diagnostics_channel";
import { fillTracingChannelGap } from "../../lib/provider/tracing-channel.ts";

test("a tracing channel says whether anyone listens, so the SDK skips tracing when nobody does", () => {
  fillTracingChannelGap();
  fillTracingChannelGap(); // a second call changes nothing
  const channel = diagnostics.tracingChannel("shiro:test");
  expect(channel.hasSubscribers).toBe(false);
  const listener = { asyncEnd: () => {} };
  channel.subscribe(listener);
  expect(channel.hasSubscribers).toBe(true);
  expect(diagnostics.tracingChannel("shiro:other").hasSubscribers).toBe(false);
  channel.unsubscribe(listener);
  expect(channel.hasSubscribers).toBe(false);
});
