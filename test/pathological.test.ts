/**
 * Types built to break a schema generator: huge unions and enums, nesting 50 levels deep (and
 * far deeper), self-referencing conditional types, types that expand without end or
 * exponentially, and types from declaration files with no source (the MCP SDK's, zod's,
 * Node's `Buffer`, the DOM's `Response`...). Each is registered as a tool's parameter and as its
 * return type (`structuredOutput: true`), in a program of its own. The build must answer each
 * in bounded time and memory: a valid schema, or a diagnostic where it gives up — never a
 * throw, a stack overflow (which would surface as TS93099) or a hang.
 */
import * as v8 from "node:v8";
import * as vm from "node:vm";
import * as ts from "typescript";
import { compileTypeBatch, verdictOf, type Verdict } from "./support/type-batch";

/** Hang guards, not measures: each case takes about a second. */
const CASE_BOUND_MS = 30_000;
const HEAP_BOUND_BYTES = 1.5 * 1024 ** 3;

/**
 * The heap a case leaves behind, after a full collection: without one, the garbage of the
 * suites this worker ran before counts too, and the bound is crossed by chance.
 */
v8.setFlagsFromString("--expose-gc");
const collectGarbage = vm.runInNewContext("gc") as () => void;
function heapUsed(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const chain = (n: number, first: string, next: (i: number) => string) =>
  range(n + 1)
    .map((i) => (i === 0 ? first : next(i)))
    .join("\n");
const nestedText = (n: number, inner: string, wrap: (t: string) => string) => range(n).reduce((t) => wrap(t), inner);

type Expectation = "schema" | RegExp;

interface Case {
  /** The type registered, and the declarations it needs. */
  type: string;
  decls: string[];
  input: Expectation;
  output: Expectation;
  /** The compiler's own errors the source is expected to have, each matching this (TypeScript refusing the type itself). */
  compilerErrors?: RegExp;
  /** TypeScript caps the type's instantiation (TS2589). */
  capped?: boolean;
  options?: ts.CompilerOptions;
  /** Further checks on the schemas. */
  check?: (input: Verdict, output: Verdict) => void;
}

const TOO_DEEP = /is nested too deeply to describe \(more than 100 levels\)/;

const cases: Record<string, Case> = {
  "a union of 5,000 string literals": {
    type: "Big",
    decls: [
      `type Big = ${range(5000)
        .map((i) => `"v${i}"`)
        .join(" | ")};`,
    ],
    input: "schema",
    output: "schema",
    check: (input) => expect(schemaOf(input).properties.value.enum).toHaveLength(5000),
  },
  "a union of 5,000 number literals and 5,000 string literals": {
    type: "TenThousand",
    decls: [
      `type TenThousand = ${range(5000)
        .map((i) => `${i} | "s${i}"`)
        .join(" | ")};`,
    ],
    input: "schema",
    output: "schema",
    check: (input) =>
      expect(schemaOf(input).properties.value.anyOf.map((s: { enum: unknown[] }) => s.enum.length)).toEqual([
        5000, 5000,
      ]),
  },
  "an enum of 5,000 members": {
    type: "Huge",
    decls: [
      `enum Huge { ${range(5000)
        .map((i) => `M${i}`)
        .join(", ")} }`,
    ],
    input: "schema",
    output: "schema",
    check: (input) => expect(schemaOf(input).properties.value.enum).toHaveLength(5000),
  },
  "a union of 5,000 object types": {
    type: "Event",
    decls: [
      `type Event = ${range(5000)
        .map((i) => `{ kind: "e${i}"; at: number }`)
        .join(" | ")};`,
    ],
    input: "schema",
    output: "schema",
  },
  "50 levels of named types (type N1 = { next: N0 } ...)": {
    type: "N50",
    decls: [chain(50, "type N0 = { v: number };", (i) => `type N${i} = { next: N${i - 1} };`)],
    input: "schema",
    output: "schema",
    check: (input) => expect(Object.keys(schemaOf(input).$defs)).toHaveLength(51),
  },
  "a generic nested 50 deep (Wrap<Wrap<...>>)": {
    type: nestedText(50, "string", (t) => `Wrap50<${t}>`),
    decls: ["type Wrap50<T> = { inner: T; label: string };"],
    input: "schema",
    output: "schema",
  },
  "an anonymous object type nested 50 deep": {
    type: nestedText(50, "string", (t) => `{ a: ${t} }`),
    decls: [],
    input: "schema",
    output: "schema",
  },
  "an array type nested 50 deep (string[][]...)": {
    type: `string${"[]".repeat(50)}`,
    decls: [],
    input: "schema",
    output: "schema",
  },
  "150 levels of named types: deeper than typemcp describes": {
    type: "M150",
    decls: [chain(150, "type M0 = { v: number };", (i) => `type M${i} = { next: M${i - 1} };`)],
    input: TOO_DEEP,
    output: TOO_DEEP,
  },
  "a self-referencing conditional type over a recursive interface (Deep<Tree>)": {
    type: "DeepOf<Tree>",
    decls: [
      "type DeepOf<T> = T extends object ? { [K in keyof T]: DeepOf<T[K]> } : T;",
      "interface Tree { value: string; children: Tree[]; parent?: Tree }",
    ],
    input: "schema",
    output: "schema",
  },
  "a type alias that only refers to itself (type Loop<T> = Loop<T[]>), which TypeScript refuses": {
    type: "Loop<string>",
    decls: ["type Loop<T> = Loop<T[]>;"],
    compilerErrors: /Type alias 'Loop' circularly references itself|Type 'Loop' is not generic/,
    input: "schema",
    output: /says nothing about the value's shape/,
  },
  "a conditional type that recurses without end, which TypeScript caps": {
    type: "Grow<string>",
    decls: ["type Grow<T> = T extends unknown ? Grow<[T]> : never;"],
    capped: true,
    input: "schema",
    output: /says nothing about the value's shape/,
  },
  "an interface whose every level is a new type (interface Inf<T> { next: Inf<T[]> })": {
    type: "Inf<string>",
    decls: ["interface Inf<T> { value: T; next: Inf<T[]> }"],
    input: TOO_DEEP,
    output: TOO_DEEP,
  },
  "an interface that nests itself in itself (interface Box<T> { inner: Box<Box<T>> })": {
    type: "Box<number>",
    decls: ["interface Box<T> { inner: Box<Box<T>> }"],
    input: TOO_DEEP,
    output: TOO_DEEP,
  },
  "a type that branches at every level into new types (4^8 of them)": {
    type: "Fan<string>",
    decls: [
      `type Fan<T, N extends unknown[] = []> = N["length"] extends 8 ? T : { a: Fan<[T, "a"], [...N, 0]>; b: Fan<[T, "b"], [...N, 0]>; c: Fan<[T, "c"], [...N, 0]>; d: Fan<[T, "d"], [...N, 0]> };`,
    ],
    input: /is too large to describe \(more than 20000 distinct types inside\)/,
    output: /is too large to describe \(more than 20000 distinct types inside\)/,
  },
  "a type whose schema doubles at each of 40 levels (type T1 = [T0, T0] ...)": {
    type: "T40",
    decls: [chain(40, "type T0 = { v: number };", (i) => `type T${i} = [T${i - 1}, T${i - 1}];`)],
    input:
      /T\d+ is too large to describe \(its schema would have more than 20000 parts\)[\s\S]*\.\.\.and more: only the first 20 problems are listed/,
    output: /T\d+ is too large to describe \(its schema would have more than 20000 parts\)/,
  },
  "a union that doubles at each of 40 levels (type U1 = { l: U0 } | { r: U0 } ...)": {
    type: "U40",
    decls: [chain(40, "type U0 = string;", (i) => `type U${i} = { l: U${i - 1} } | { r: U${i - 1} };`)],
    input: /U\d+ is too large to describe \(its schema would have more than 20000 parts\)/,
    output: /U\d+ is too large to describe \(its schema would have more than 20000 parts\)/,
  },
  "the MCP SDK's CallToolResult (a zod-inferred type from a .d.ts)": {
    type: "CallToolResult",
    decls: ['import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";'],
    input: "schema",
    output: "schema",
  },
  "the MCP SDK's Server class": {
    type: "Server",
    decls: ['import type { Server } from "@modelcontextprotocol/sdk/server/index.js";'],
    input: /Server<.*> is sent as \{\}: its getters \("experimental", "transport"\) live on the prototype/,
    output: /Server<.*> is sent as \{\}: its getters \("experimental", "transport"\) live on the prototype/,
  },
  "a zod schema's inferred type, and the zod schema type itself": {
    type: "[Shape, typeof Shape]",
    decls: [
      'import { z } from "zod";',
      "const Shape = z.object({ name: z.string(), tags: z.array(z.string()).optional(), size: z.number().int() });",
      "type Shape = z.infer<typeof Shape>;",
    ],
    input: /has no values \(its element 1 has none\)/,
    output: /has no values \(its element 1 has none\)/,
  },
  "Node's Buffer: what its toJSON() returns": {
    type: "Buffer",
    decls: [],
    options: { types: ["node"] },
    input: "schema",
    output: "schema",
    check: (_, output) => {
      if (output.kind !== "schema") throw new Error("no schema");
      expect(output.outputSchema).toMatchObject({
        properties: { type: { const: "Buffer" }, data: { type: "array", items: { type: "number" } } },
      });
    },
  },
  "URL (a string, by its toJSON()), Response, ReadableStream: their declared data properties": {
    type: "[URL, Response, ReadableStream<Uint8Array>]",
    decls: [],
    options: { types: ["node"] },
    input: "schema",
    output: "schema",
    check: (input) => expect(schemaOf(input).properties.value.prefixItems[0]).toEqual({ type: "string" }),
  },
  "AbortSignal: its event handler, a required function-typed property (or null), which JSON drops": {
    type: "AbortSignal",
    decls: [],
    options: { types: ["node"] },
    input: /value\.onabort: \(this: AbortSignal, ev: Event\) => any is a function, which JSON drops/,
    output: /result\.onabort: \(this: AbortSignal, ev: Event\) => any is a function, which JSON drops/,
  },
  "typeof globalThis": {
    type: "typeof globalThis",
    decls: [],
    input: /\.\.\.and more: only the first 20 problems are listed/,
    output: /\.\.\.and more: only the first 20 problems are listed/,
  },
};

/** Each a bug the fuzz test found: the transformer threw, overflowed, or wrote a schema that was not one. */
const regressions: Record<string, Case> = {
  "a getter in a return type's object literal (the visitor threw: lexical environment suspended)": {
    type: "{ get size(): number; label: string }",
    decls: [],
    input: "schema",
    output: "schema",
  },
  "a recursive array type as the return type (content detection overflowed the stack)": {
    type: "Nested",
    decls: ["type Nested = (string | Nested)[];"],
    input: "schema",
    output: "schema",
  },
  "a number literal type beyond the doubles (1e400 is Infinity, which JSON has not)": {
    type: "1e400 | -1e400",
    decls: [],
    input: /Infinity is not a JSON number \(JSON has no Infinity\)/,
    output: /Infinity is not a JSON number \(JSON has no Infinity\)/,
  },
  "a property named __proto__ (its schema went missing, leaving it required and forbidden)": {
    type: "WithProto",
    decls: ['interface WithProto { "__proto__": string; a: number }'],
    input: "schema",
    output: "schema",
    check: (_, output) => {
      if (output.kind !== "schema") throw new Error("no schema");
      const properties = output.outputSchema!.properties as Record<string, unknown>;
      expect(Object.hasOwn(properties, "__proto__")).toBe(true);
      expect(properties["__proto__"]).toEqual({ type: "string" });
    },
  },
  "a toJSON() that returns the object itself (its definition was a $ref to itself)": {
    type: "[SelfJson, ThisJson]",
    decls: [
      "class SelfJson { a = 1; toJSON(): SelfJson { return this; } }",
      "class ThisJson { b = 1; toJSON(): this { return this; } }",
    ],
    input: "schema",
    output: "schema",
    check: (input) => {
      const schema = schemaOf(input);
      expect(schema.$defs.SelfJson).toMatchObject({ type: "object", properties: { a: { type: "number" } } });
      expect(schema.$defs.ThisJson).toMatchObject({ type: "object", properties: { b: { type: "number" } } });
    },
  },
  "two toJSON() that return each other's class": {
    type: "JsonA",
    decls: [
      "class JsonA { a = 1; toJSON(): JsonB { return new JsonB(); } }",
      "class JsonB { b = 1; toJSON(): JsonA { return new JsonA(); } }",
    ],
    input: /JsonA has a toJSON\(\) that returns JsonB, whose own toJSON\(\) JSON.stringify does not call/,
    output: /JsonA has a toJSON\(\) that returns JsonB, whose own toJSON\(\) JSON.stringify does not call/,
  },
  "a void property made optional (its schema was anyOf: []): left out, as no JSON value can stand for it": {
    type: "Partial<{ done: void; n: number }>",
    decls: [],
    input: "schema",
    output: "schema",
    check: (input) =>
      expect(schemaOf(input).properties.value).toEqual({
        type: "object",
        properties: { n: { type: "number" } },
        additionalProperties: false,
      }),
  },
  "enum members whose values are computed (no literal type): numbers": {
    type: "[Sized, Sized.Length, Declared]",
    decls: ['enum Sized { Length = "abc".length, Fixed = 2 }', "declare enum Declared { Q, R }"],
    input: "schema",
    output: "schema",
    check: (input) =>
      expect(schemaOf(input).properties.value.prefixItems).toEqual([
        { anyOf: [{ type: "number" }, { type: "number", const: 2 }] },
        { type: "number" },
        { anyOf: [{ type: "number" }, { type: "number" }] },
      ]),
  },
};

function schemaOf(verdict: Verdict) {
  if (verdict.kind !== "schema") throw new Error(`no schema: ${JSON.stringify(verdict)}`);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each case reads its own path into the schema
  return verdict.inputSchema as any;
}

function expectVerdict(verdict: Verdict, expectation: Expectation): void {
  if (verdict.kind === "failure") throw new Error(verdict.why);
  if (expectation === "schema") {
    expect(verdict).toMatchObject({ kind: "schema" });
  } else {
    expect(verdict.kind).toBe("diagnostic");
    if (verdict.kind === "diagnostic") expect(verdict.messages.join("\n")).toMatch(expectation);
  }
}

const all: Record<string, Case> = { ...cases, ...regressions };

test.each(Object.keys(all))("%s: bounded, and a valid schema or a diagnostic", (name) => {
  const c = all[name];
  const folder = `pathological_${Object.keys(all).indexOf(name)}`;
  const batch = compileTypeBatch(folder, [{ text: c.type, decls: c.decls, p: false }], 0, c.options);
  expect(batch.ms).toBeLessThan(CASE_BOUND_MS);
  expect(heapUsed()).toBeLessThan(HEAP_BOUND_BYTES);
  if (c.compilerErrors) {
    expect(batch.compilerErrors.length).toBeGreaterThan(0);
    for (const error of batch.compilerErrors) expect(error).toMatch(c.compilerErrors);
  } else {
    expect(batch.compilerErrors).toEqual([]);
  }
  expect(batch.capped > 0).toBe(c.capped ?? false);
  const [only] = batch.cases;
  const input = verdictOf(only.in, "input");
  const output = verdictOf(only.out, "output");
  expectVerdict(input, c.input);
  expectVerdict(output, c.output);
  c.check?.(input, output);
});
