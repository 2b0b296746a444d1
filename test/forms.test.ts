/**
 * The forms of `ctx.elicit<T>()` (transformer/form/): the exact form the transformer writes into
 * each call of fixtures/forms (its diagnostics are its expected.json's, checked by
 * fixtures.test.ts), and how the calls are found: through the checker, wherever the context
 * goes, leaving alone what is not typemcp's or already carries a form.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { CONTRACT_VERSION } from "typemcp";
import { emittedForms } from "./support/emitted-contracts";
import { SEP_1330_FORM } from "./support/forms";
import { FIXTURES_OUT } from "./support/fixtures";
import { compileSnippets, type SnippetResult } from "./support/snippets";

const v = CONTRACT_VERSION;

/** The SEP-1330 type's form: the five enum shapes the conformance suite asks for. */
const SEP_1330 = { v, name: "EnumForm", requestedSchema: SEP_1330_FORM };

/** The SEP-1034 type's form: a default for every primitive. */
const SEP_1034 = {
  v,
  name: "Defaults",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", default: "John Doe" },
      age: { type: "integer", default: 30 },
      score: { type: "number", default: 95.5 },
      status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
      verified: { type: "boolean", default: true },
    },
    required: ["name", "age", "score", "status", "verified"],
  },
};

const BOOKING = {
  v,
  name: "Booking",
  requestedSchema: {
    type: "object",
    properties: {
      name: {
        type: "string",
        title: "Name",
        description: "Who the table is for.",
        minLength: 1,
        maxLength: 80,
        default: "Guest",
      },
      email: { type: "string", title: "E-mail", format: "email" },
      website: { type: "string", format: "uri" },
      day: { type: "string", format: "date" },
      arrival: { type: "string", format: "date-time" },
      note: { type: "string", minLength: 2, maxLength: 200 },
      guests: {
        type: "integer",
        title: "Guests",
        description: "How many people.",
        minimum: 1,
        maximum: 12,
        default: 2,
      },
      budget: { type: "number", title: "Budget", minimum: 0, maximum: 10000, default: 250.5 },
      newsletter: { type: "boolean", title: "Newsletter", description: "Send me offers.", default: false },
      seats: {
        type: "array",
        title: "Seats",
        description: "Where to sit.",
        minItems: 1,
        maxItems: 2,
        items: { type: "string", enum: ["aisle", "window", "terrace"] },
        default: ["window"],
      },
    },
    required: ["name", "day", "guests"],
  },
};

/** A form the build refused: no fields, and the diagnostic's text for the runtime to refuse it with. */
const refused = (name: string, error: string) => ({
  v,
  name,
  requestedSchema: { type: "object", properties: {}, required: [] },
  error,
});

const HOLDS = "a form holds only strings, numbers, integers, booleans and enums (and lists of enum values)";
const GENERIC =
  "The form of this ctx.elicit call cannot be written from T, which stands for a type given elsewhere: typemcp writes the form when it builds, from the type at the call. Call ctx.elicit with the form's own type (ctx.elicit<Booking>(...)), not through a generic function";

describe("fixtures/forms, as the transformer emits it", () => {
  const forms = () => emittedForms(fs.readFileSync(path.join(FIXTURES_OUT, "forms", "tool.js"), "utf8"));

  test("each call gets its form after its message and options, as one JSON.parse literal", () => {
    expect(forms().map(({ args, text }) => [args, text.slice(0, 19)])).toEqual([
      [['"Book a table"', '{ key: "booking" }'], `JSON.parse('{"v":${v},`],
      [['"Pick some options"', "void 0"], `JSON.parse('{"v":${v},`],
      [['"Check the defaults"', "void 0"], `JSON.parse('{"v":${v},`],
      [['"Where to?"', "void 0"], `JSON.parse('{"v":${v},`],
      [["message", "void 0"], `JSON.parse('{"v":${v},`],
      [['"Nothing fits"', "void 0"], `JSON.parse('{"v":${v},`],
      [['"Any keys"', "void 0"], `JSON.parse('{"v":${v},`],
      [['"No type"', "void 0"], `JSON.parse('{"v":${v},`],
    ]);
  });

  test("every kind of field with every keyword a form takes; the SEP-1330 enums; the SEP-1034 defaults", () => {
    const [booking, enums, defaults] = forms().map((f) => f.form);
    expect(booking).toEqual(BOOKING);
    expect(enums).toEqual(SEP_1330);
    expect(defaults).toEqual(SEP_1034);
    // Keys in the order a form is written: type, title, description, the kind's keywords, default.
    expect(JSON.stringify(defaults)).toBe(JSON.stringify(SEP_1034));
    expect(JSON.stringify(booking)).toBe(JSON.stringify(BOOKING));
  });

  test("T inferred from what the answer is assigned to", () => {
    expect(forms()[3].form).toEqual({
      v,
      name: "{ city: string; }",
      requestedSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    });
  });

  test("a refused form carries the build's error and no field", () => {
    const [generic, wrong, dictionary, untyped] = forms()
      .slice(4)
      .map((f) => f.form);
    expect(generic).toEqual(refused("T", GENERIC));
    expect(wrong).toEqual(
      refused(
        "Wrong",
        [
          "The form of this ctx.elicit call cannot be written from Wrong",
          `  Wrong.guest: ${HOLDS}; an object (Guest) is not allowed`,
          `  Wrong.tags: ${HOLDS}; a list is allowed only of enum values (string literals or string enum members), not string[]`,
          `  Wrong.either: ${HOLDS}; a union is allowed only of string literals, not string | number`,
          "  Wrong.when: a Date is not allowed: use string with @format date-time (or date), which the answer holds as its text",
          "  Wrong.maybe: null is not allowed: make the property optional instead",
          "  Wrong.code: pattern is not allowed in a form: a string field takes only description, title, format, minLength, maxLength and default",
          `  Wrong.id: format "uuid" is not allowed in a form: the protocol's forms take email, uri, date and date-time`,
          `  Wrong.ratio: ${HOLDS}; Format<"double">: format applies to strings only`,
          `  Wrong.level: ${HOLDS}; an enum's values are strings, not 1 | 2 | 3`,
          "  Wrong.plain: @enumNames needs an enum whose members have JSDoc comments: they are the names it lists",
          '  Wrong.mode: @default takes one of the values ("on", "off"), not "maybe"',
          '  Wrong.partly: a titled enum needs a JSDoc comment (its title) on every member, or none on any: "no" has none',
          "  Wrong.many: @enumNames applies to a single-select enum only, not to a list field",
        ].join("\n"),
      ),
    );
    expect(dictionary).toEqual(
      refused(
        "Dictionary",
        `The form of this ctx.elicit call cannot be written from Dictionary\n  Dictionary: ${HOLDS} as declared properties; an index signature is not allowed`,
      ),
    );
    expect(untyped).toEqual(
      refused(
        "object",
        "ctx.elicit needs the form's type as its type argument (ctx.elicit<Booking>(message)): here it is inferred as object, which names no fields",
      ),
    );
  });
});

describe("which calls get a form", () => {
  const HEADER = `import type { ToolContext, Elicitation } from "typemcp";\ninterface F { city: string }\n`;
  const LINE = 3; // first line after HEADER
  const CITY = {
    v,
    name: "F",
    requestedSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  };
  const sources: Record<string, string> = {
    destructured: `export async function f(ctx: ToolContext) {\n  const { elicit: ask } = ctx;\n  return ask<F>("m");\n}\n`,
    element_access: `export async function f(ctx: ToolContext) {\n  return ctx["elicit"]<F>("m", { key: "k" });\n}\n`,
    another_elicit: `class Other { elicit<T>(m: string, o?: object, f?: object): T | undefined { return undefined; } }\nexport const r = new Other().elicit<F>("m");\n`,
    carries_a_form: `export async function f(ctx: ToolContext) {\n  return ctx.elicit<F>("m", undefined, { v: 2, name: "F", requestedSchema: {} } as never);\n}\n`,
    spread: `export async function f(ctx: ToolContext, args: [string]) {\n  return ctx.elicit<F>(...args);\n}\n`,
    not_an_object: `export async function f(ctx: ToolContext) {\n  return ctx.elicit<string[]>("m");\n}\n`,
    written_object: `export async function f(ctx: ToolContext) {\n  return ctx.elicit<object>("m");\n}\n`,
    literal_order: `export const first: "b" = "b";\ntype Pick2 = "y" | "x";\nexport const second: "x" = "x";\ninterface Order {\n  pick: "a" | "b";\n  picks: ("a" | "b")[];\n  alias: Pick2;\n}\nexport async function f(ctx: ToolContext) {\n  return ctx.elicit<Order>("m");\n}\n`,
    indexed: `export async function f<K extends keyof { a: F }>(ctx: ToolContext) {\n  return ctx.elicit<{ a: F }[K]>("m");\n}\n`,
  };
  let results: Record<string, SnippetResult>;
  beforeAll(() => {
    results = compileSnippets("forms", Object.fromEntries(Object.entries(sources).map(([k, s]) => [k, HEADER + s])));
  });
  const formsOf = (name: string) => emittedForms(results[name].js);

  test("the snippets are valid TypeScript apart from what typemcp reports (ToolContext.elicit declares no third argument)", () => {
    for (const [name, result] of Object.entries(results))
      expect([name, result.compilerErrors]).toEqual([
        name,
        name === "carries_a_form" ? ["Expected 1-2 arguments, but got 3."] : [],
      ]);
  });

  test('a destructured and renamed elicit, and ctx["elicit"], are found through the checker', () => {
    // A call whose callee is not `x.elicit` is printed with the form too; emittedForms finds `x.elicit` only.
    expect(results.destructured.js).toContain(`return ask("m", void 0, JSON.parse('${JSON.stringify(CITY)}'));`);
    expect(results.element_access.js).toContain(
      `return ctx["elicit"]("m", { key: "k" }, JSON.parse('${JSON.stringify(CITY)}'));`,
    );
    expect([results.destructured.diagnostics, results.element_access.diagnostics]).toEqual([[], []]);
  });

  test("an elicit method that is not ToolContext's, and a call that carries its form already, are left as written", () => {
    expect(formsOf("another_elicit")).toEqual([{ args: ['"m"'], text: "", form: undefined }]);
    expect(formsOf("carries_a_form").map((f) => f.text)).toEqual(['{ v: 2, name: "F", requestedSchema: {} }']);
    expect([results.another_elicit.diagnostics, results.carries_a_form.diagnostics]).toEqual([[], []]);
  });

  test("an enum's values in the order written, whatever order the checker created the literals in", () => {
    expect(formsOf("literal_order")[0].form?.requestedSchema).toEqual({
      type: "object",
      properties: {
        pick: { type: "string", enum: ["a", "b"] },
        picks: { type: "array", items: { type: "string", enum: ["a", "b"] } },
        alias: { type: "string", enum: ["y", "x"] },
      },
      required: ["pick", "picks", "alias"],
    });
  });

  test("spread arguments: the call is left as written, and the diagnostic says why", () => {
    expect(formsOf("spread")).toEqual([{ args: ["...args"], text: "", form: undefined }]);
    expect(results.spread.diagnostics).toEqual([
      {
        file: "spread.ts",
        line: LINE + 1,
        column: 10,
        category: "error",
        code: 93006,
        message: "ctx.elicit takes its message and options written out (not spread): typemcp adds the form after them",
      },
    ]);
  });

  test("T that is no object of fields: an array, object written out, a type that depends on a type parameter", () => {
    const messages = (name: string) =>
      results[name].diagnostics.map(({ line, column, code, message }) => ({ line, column, code, message }));
    expect(messages("not_an_object")).toEqual([
      {
        line: LINE + 1,
        column: 10,
        code: 93006,
        message:
          "The form of this ctx.elicit call cannot be written from string[]\n  string[]: a form is an object type of named fields (an interface, a type alias of an object type, an object literal type), and string[] is none",
      },
    ]);
    expect(messages("written_object")).toEqual([
      {
        line: LINE + 1,
        column: 10,
        code: 93006,
        message:
          "The form of this ctx.elicit call cannot be written from object, which names no fields: give the form's own type (ctx.elicit<Booking>(...))",
      },
    ]);
    expect(messages("indexed")).toEqual([
      {
        line: LINE + 1,
        column: 10,
        code: 93006,
        message: GENERIC.replace("from T,", "from { a: F; }[K],"),
      },
    ]);
    expect(formsOf("indexed")[0].form?.error).toBe(GENERIC.replace("from T,", "from { a: F; }[K],"));
  });
});
