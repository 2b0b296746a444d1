/**
 * Memory stays flat over 100,000 calls (valid, invalid, faulty): no growth from caches,
 * listeners or pending state. Measured in a child process with a full GC before each reading.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { FIXTURES_OUT } from "./support/fixtures";

test("the heap after 100,000 calls is the heap after the first 10,000", () => {
  const probe = path.join(__dirname, "support", "memory-probe.js");
  const output = execFileSync(
    process.execPath,
    ["--expose-gc", probe, path.join(FIXTURES_OUT, "hostile", "tool.js"), "100000"],
    { encoding: "utf8" },
  );
  const { calls, heapAfterWarmup, heapAtEnd } = JSON.parse(output.trim().split("\n").pop()!);
  expect(calls).toBe(100000);
  // 90,000 calls leaking even 50 bytes each would add 4.5 MB.
  expect(heapAtEnd - heapAfterWarmup).toBeLessThan(2 * 1024 * 1024);
});

test.each(["legacy", "modern", "http"])(
  "a call its client abandons (%s) lets go of what it holds, its signal aborts, and close() does not wait for it",
  (mode) => {
    const probe = path.join(__dirname, "support", "abandon-probe.js");
    const output = execFileSync(process.execPath, ["--expose-gc", probe, mode, "400"], { encoding: "utf8" });
    const { calls, bytesPerCall, aborted, closeMs } = JSON.parse(output.trim().split("\n").pop()!);
    expect(calls).toBe(450);
    expect(aborted).toBe(450);
    // Kept until shutdown, each call held 8.6–8.8 KB in memory and 26.9 KB over HTTP.
    expect(bytesPerCall).toBeLessThan(2048);
    // Not the shutdownTimeout (60 s) a close waits for the calls in flight: none are.
    expect(closeMs).toBeLessThan(30_000);
  },
  120_000,
);
