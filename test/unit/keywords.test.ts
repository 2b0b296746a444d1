/**
 * transformer/model/keywords.ts on its own: the one table behind JSDoc tags (`@minimum 0`) and
 * tag types (`number & Minimum<0>`): the value each keyword takes from a tag's text, what it
 * applies to (through references and unions), and the message when either is wrong.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { KEYWORD_ROWS } from "../../contract/keywords";
import { checkTagKeyword, isKeyword, keywordFromTag, withKeywords } from "../../transformer/model/keywords";
import type { Model } from "../../transformer/model/model";
import { ROOT } from "../support/build";

const number: Model = { kind: "number" };
const string: Model = { kind: "string" };
const strings: Model = { kind: "array", items: string };

/** The keywords a tag writes: the rows of contract/keywords.ts with a tag. */
const TAGGED = KEYWORD_ROWS.filter(([, row]) => row.tag).map(([name]) => name);

test("a tag writes the keywords of the table's rows with a tag, and no others", () => {
  expect(TAGGED).toEqual(expect.arrayContaining(["minimum", "pattern", "format", "uniqueItems", "default", "title"]));
  expect(TAGGED.filter((name) => !isKeyword(name))).toEqual([]);
  const untagged = KEYWORD_ROWS.filter(([, row]) => !row.tag).map(([name]) => name);
  expect(untagged).toEqual(expect.arrayContaining(["type", "description", "properties", "$ref"]));
  expect([...untagged, "param", "returns", "see", "toString", "__proto__"].filter(isKeyword)).toEqual([]);
});

test("each tag type of runtime/tags.ts is its keyword's tagType, and each tagType is a type there", () => {
  const source = ts.createSourceFile(
    "tags.ts",
    fs.readFileSync(path.join(ROOT, "runtime/tags.ts"), "utf8"),
    ts.ScriptTarget.Latest,
  );
  const written = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isTypeAliasDeclaration(statement) || statement.name.text === "Tag") continue;
    if (!statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) continue;
    const keyword = /\bTag<"(\w+)"/.exec(statement.type.getText(source));
    if (keyword) written.set(statement.name.text, keyword[1]);
  }
  const rows = new Map(KEYWORD_ROWS.flatMap(([name, row]) => (row.tagType ? [[row.tagType, name]] : [])));
  expect(written.get("Minimum")).toBe("minimum");
  expect(written.get("Integer")).toBe("type");
  expect(new Map([...written].sort())).toEqual(new Map([...rows].sort()));
});

describe("a JSDoc tag's text", () => {
  const read: [string, string, Model, unknown][] = [
    ["minimum", "-90", number, { value: -90 }],
    ["multipleOf", "0.5", number, { value: 0.5 }],
    ["exclusiveMinimum", "0", number, { value: 0 }],
    ["exclusiveMaximum", "1.5", number, { value: 1.5 }],
    ["maxLength", "8", string, { value: 8 }],
    ["maxItems", "3", strings, { value: 3 }],
    ["minLength", " 2 ", string, { value: 2 }],
    ["pattern", " ^[A-Z]{3}$ ", string, { value: "^[A-Z]{3}$" }],
    ["format", "email", string, { value: "email" }],
    ["minItems", "1", strings, { value: 1 }],
    ["uniqueItems", "", strings, { value: true }],
    ["uniqueItems", "false", strings, { value: false }],
    ["default", '{"unit": "c"}', { kind: "any" }, { value: { unit: "c" } }],
    ["default", "metric", string, { value: "metric" }],
    // JSON5, as such values are written in code: unquoted keys, single quotes, a trailing comma.
    ["default", '{extra: {field: "value"}}', { kind: "any" }, { value: { extra: { field: "value" } } }],
    ["default", "['a', 'b',]", strings, { value: ["a", "b"] }],
    ["default", "'metric'", string, { value: "metric" }],
    // A bare number stays JSON's: these are the strings they say.
    ["default", "0x10", string, { value: "0x10" }],
    ["default", "Infinity", string, { value: "Infinity" }],
    ["examples", "[{unit: 'c'}]", { kind: "any" }, { value: [{ unit: "c" }] }],
    ["examples", "3", number, { value: [3] }],
    ["examples", "[1, 2]", number, { value: [1, 2] }],
    ["deprecated", "", number, { value: true }],
    ["title", " Temperature ", number, { value: "Temperature" }],
    // Through a union and a reference: a number is among what the value can be.
    ["maximum", "10", { kind: "union", members: [{ kind: "null" }, { kind: "integer" }] }, { value: 10 }],
    [
      "minLength",
      "1",
      { kind: "ref", definition: { name: "Code", title: "Code", model: { kind: "literal", value: "x" } } },
      { value: 1 },
    ],
  ];
  test.each(read)("@%s %j on a %j", (name, text, model, expected) => {
    expect(keywordFromTag(name, text, model)).toEqual(expected);
  });

  test("every keyword a tag writes is read here, from its text (a row added to the table is a case added here)", () => {
    expect(TAGGED.filter((name) => !read.some(([keyword]) => keyword === name))).toEqual([]);
  });

  test.each([
    ["minimum", "warm", number, '@minimum takes a number, not "warm"'],
    ["minimum", "", number, '@minimum takes a number, not ""'],
    ["maximum", "1e400", number, '@maximum takes a number, not "1e400"'],
    ["multipleOf", "0", number, "@multipleOf takes a number > 0, not 0"],
    ["minLength", "1.5", string, "@minLength takes a whole number ≥ 0, not 1.5"],
    ["minLength", "2", number, "@minLength applies to strings only"],
    ["minItems", "1", string, "@minItems applies to arrays only"],
    ["minimum", "0", string, "@minimum applies to numbers only"],
    ["uniqueItems", "yes", strings, '@uniqueItems takes true or false, not "yes"'],
    [
      "format",
      "e-mail",
      string,
      '@format "e-mail" is not a format typemcp validates (one of: date, time, date-time, iso-time, iso-date-time, duration, uri, uri-reference, uri-template, url, email, hostname, ipv4, ipv6, regex, uuid, json-pointer, json-pointer-uri-fragment, relative-json-pointer, byte, int32, int64, float, double, password, binary)',
    ],
    ["default", "[1e400]", number, "@default takes a JSON value: Infinity is not a JSON number"],
    // Neither JSON nor JSON5: taken as a string it would be a default its own schema refuses.
    [
      "default",
      "{extra: {field: }}",
      { kind: "any" },
      "@default takes a JSON value: {extra: {field: }} is neither JSON nor JSON5 (keys and strings go in quotes)",
    ],
    ["default", "{a: Infinity}", { kind: "any" }, "@default takes a JSON value: Infinity is not a JSON number"],
    ["default", "[1, NaN]", { kind: "array", items: number }, "@default takes a JSON value: NaN is not a JSON number"],
    ["default", "three", number, "@default takes a JSON value: three is not JSON, and this type admits no string"],
  ] as [string, string, Model, string][])("@%s %j on a %j: an error", (name, text, model, error) => {
    expect(keywordFromTag(name, text, model)).toEqual({ error });
  });

  test("a pattern that is no regular expression (read with the u flag) says why", () => {
    expect(keywordFromTag("pattern", "[a-", string)).toEqual({
      error:
        "@pattern is not a valid regular expression: Invalid regular expression: /[a-/u: Unterminated character class",
    });
  });
});

describe("a tag type's value", () => {
  test("valid: no message", () => {
    expect(checkTagKeyword("minimum", 0, number)).toBeUndefined();
    expect(checkTagKeyword("format", "uuid", string)).toBeUndefined();
    expect(checkTagKeyword("uniqueItems", true, strings)).toBeUndefined();
    expect(checkTagKeyword("maxLength", 3, { kind: "any" })).toBeUndefined();
  });

  test.each([
    ["minimum", "0", number, 'minimum takes a number, not "0"'],
    ["minLength", -1, string, "minLength takes a whole number ≥ 0, not -1"],
    ["multipleOf", -2, number, "multipleOf takes a number > 0, not -2"],
    ["pattern", 5, string, "pattern takes a regular expression, not 5"],
    [
      "format",
      "e-mail",
      number,
      'format "e-mail" is not a format typemcp validates (one of: date, time, date-time, iso-time, iso-date-time, duration, uri, uri-reference, uri-template, url, email, hostname, ipv4, ipv6, regex, uuid, json-pointer, json-pointer-uri-fragment, relative-json-pointer, byte, int32, int64, float, double, password, binary)',
    ],
    ["maxItems", 2, string, "maxItems applies to arrays only"],
    ["examples", 1, number, "examples takes an array of examples"],
  ] as [string, unknown, Model, string][])("%s %j on a %j: %s", (name, value, model, message) => {
    expect(checkTagKeyword(name, value as never, model)).toBe(message);
  });
});

test("keywords go on a new node: the shared model is unchanged", () => {
  const base: Model = { kind: "number", keywords: { minimum: 0 } };
  expect(withKeywords(base, { maximum: 10 })).toEqual({ kind: "number", keywords: { minimum: 0, maximum: 10 } });
  expect(base).toEqual({ kind: "number", keywords: { minimum: 0 } });
  expect(withKeywords(base, {})).toBe(base);
});
