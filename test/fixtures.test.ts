/**
 * Every fixture, built with the transformer in one program (test/global-setup.ts), checked
 * three ways: the exact diagnostics, the exact tools/list (schemas included), and the exact
 * results of its calls over InMemoryTransport, through each official client: the v2 SDK's on
 * 2026-07-28 and on 2025-11-25, and the v1 SDK's. Both revisions get the same tools and the
 * same results. (test/stdio.test.ts makes the same calls over stdio.)
 *
 * TYPEMCP_RECORD=1 writes what is observed into each expected.json instead of comparing
 * (for a new fixture; review the file before committing it).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import type { MCPServer } from "typemcp";
import { diagnosticsOf, fixtureBuild, fixtures, type Expected } from "./support/fixtures";
import { CLIENTS, connect } from "./support/in-memory";
import { observe } from "./support/observe";

const RECORD = process.env.TYPEMCP_RECORD === "1";
const cases = fixtures();
const build = fixtureBuild(); // built by test/global-setup.ts

test("the fixtures type-check cleanly (their only diagnostics are typemcp's)", () => {
  expect(build.compilerDiagnostics).toBe("");
});

describe.each(cases)("$name", ({ name, dir, module, expected }) => {
  const recorded: Expected = { ...expected };
  afterAll(() => {
    if (RECORD) fs.writeFileSync(path.join(dir, "expected.json"), JSON.stringify(recorded, null, 2) + "\n");
  });

  test("diagnostics", () => {
    const diagnostics = diagnosticsOf(build, name);
    if (RECORD) recorded.diagnostics = diagnostics;
    else expect(diagnostics).toEqual(expected.diagnostics);
  });

  test.each(CLIENTS)("tools/list and calls through the %s client", async (kind) => {
    if (expected.registrationError !== undefined) {
      expect(() => require(module)).toThrow(expected.registrationError);
      let message = "";
      try {
        require(module);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toBe(expected.registrationError);
      return;
    }
    const { mcp } = require(module) as { mcp: MCPServer };
    const client = await connect(mcp, kind);
    try {
      const observed = await observe(client, expected);
      if (RECORD) {
        if (kind === "v1 SDK") Object.assign(recorded, observed); // recorded as the v1 client orders keys
      } else {
        expect(observed.tools).toEqual(expected.tools);
        expect(observed.calls).toEqual(expected.calls);
      }
    } finally {
      await client.close();
    }
  });
});

test("every published schema is valid JSON Schema 2020-12, with an object root", () => {
  const ajv = new Ajv2020({ strict: false });
  let checked = 0;
  for (const { name, expected } of cases) {
    for (const tool of (expected.tools ?? []) as { name: string; inputSchema: object; outputSchema?: object }[]) {
      for (const schema of [tool.inputSchema, tool.outputSchema].filter((s) => s !== undefined)) {
        expect([name, tool.name, ajv.validateSchema(schema!), ajv.errors]).toEqual([name, tool.name, true, null]);
        expect((schema as { type?: string }).type).toBe("object");
        checked++;
      }
    }
  }
  expect(checked).toBeGreaterThan(60);
});

test(`every fixture folder has an expected.json (${cases.length} cases)`, () => {
  const missing = cases.filter((c) => !fs.existsSync(path.join(c.dir, "expected.json"))).map((c) => c.name);
  expect(missing).toEqual([]);
});
