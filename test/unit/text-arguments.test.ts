/**
 * Text arguments given their types (runtime/call/text-arguments.ts): a prompt's arguments are
 * the client's object and are copied before a value changes; a template's variables are an
 * object the resource decoded them into, converted where they are.
 */
import { convertText } from "../../runtime/call/text-arguments";

const CONVERT = { count: "number", strict: "boolean", sizes: "number" } as const;

test("numbers and booleans from their text, lists item by item; other text left for the check to refuse", () => {
  expect(convertText({ count: "3", strict: "true", sizes: ["1", "2.5e3", "x"], name: "7" }, CONVERT)).toEqual({
    count: 3,
    strict: true,
    sizes: [1, 2500, "x"],
    name: "7",
  });
  expect(convertText({ count: "three", strict: "yes", sizes: "01" }, CONVERT)).toEqual({
    count: "three",
    strict: "yes",
    sizes: "01",
  });
});

test("the caller's object is copied, never changed; an owned one is converted where it is", () => {
  const client = { count: "3", name: "a" };
  const converted = convertText(client, CONVERT);
  expect(converted).toEqual({ count: 3, name: "a" });
  expect(converted).not.toBe(client);
  expect(client).toEqual({ count: "3", name: "a" });

  const owned = { count: "3", name: "a" };
  expect(convertText(owned, CONVERT, true)).toBe(owned);
  expect(owned).toEqual({ count: 3, name: "a" });
});

test("nothing to convert: the same object back", () => {
  const args = { name: "a" };
  expect(convertText(args, CONVERT)).toBe(args);
  expect(convertText(args, undefined)).toBe(args);
});
