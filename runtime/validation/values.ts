import { fullFormats } from "ajv-formats/dist/formats";

/** What the checks know of JSON values: their types, lengths, equality and formats. */

export const hasOwn = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

export const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** Whether a value is of a JSON Schema type. Numbers must be finite (JSON has no other). */
export function typeTest(type: string): (value: unknown) => boolean {
  switch (type) {
    case "number":
      return (value) => typeof value === "number" && Number.isFinite(value);
    case "integer":
      return (value) => Number.isInteger(value);
    case "string":
      return (value) => typeof value === "string";
    case "boolean":
      return (value) => typeof value === "boolean";
    case "null":
      return (value) => value === null;
    case "array":
      return Array.isArray;
    case "object":
      return isObject;
    default:
      throw new Error(`typemcp: the schema has the type ${JSON.stringify(type)}, which JSON Schema does not define`);
  }
}

/** A string's length in code points, as JSON Schema counts it (a surrogate pair is one). */
export function codePoints(text: string): number {
  let length = text.length;
  for (let at = 0; at < text.length - 1; at++) {
    const unit = text.charCodeAt(at);
    if (unit >= 0xd800 && unit <= 0xdbff && (text.charCodeAt(at + 1) & 0xfc00) === 0xdc00) {
      length--;
      at++;
    }
  }
  return length;
}

/** Deep equality of JSON values (uniqueItems, const, enum). */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a))
    return a.length === (b as unknown[]).length && a.every((item, i) => equal(item, (b as unknown[])[i]));
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every(
    (key) => hasOwn(b, key) && equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

export type Format =
  RegExp | ((text: string) => boolean) | boolean | { type?: string; validate: RegExp | ((value: never) => boolean) };

/** Whether a value passes a format: formats of one JSON type say nothing about values of another. */
export function passesFormat(format: Format, value: unknown): boolean {
  if (typeof format === "boolean") return format;
  if (format instanceof RegExp) return typeof value !== "string" || format.test(value);
  if (typeof format === "function") return typeof value !== "string" || format(value);
  if (typeof value !== (format.type ?? "string")) return true;
  return format.validate instanceof RegExp
    ? format.validate.test(value as string)
    : (format.validate as (v: unknown) => boolean)(value);
}

/** A format by its name, ajv-formats' check; undefined for a name typemcp does not know. */
export function formatNamed(name: unknown): Format | undefined {
  return typeof name === "string" && hasOwn(fullFormats, name)
    ? (fullFormats as Record<string, Format>)[name]
    : undefined;
}
