import type { DateNode, DatePlan } from "../contract/contract";
import { setOwn } from "../contract/own";

/**
 * The Dates of a tool's arguments, made from their date-time strings once the arguments are
 * validated, where the contract's plan says (transformer/dates.ts writes it). The plan is
 * turned into closures once per tool; a call walks only the parts of the arguments that can
 * hold a Date, and copies only the objects and arrays on the way to one, so the arguments
 * object the request carried is left as it came.
 */

/** A string where a Date was due that is no date-time (only a hand-written contract, whose schema does not check the format, lets one through). */
export class DateError extends Error {
  readonly path: (string | number)[] = [];
  constructor(readonly text: string) {
    super(text);
  }
  /** `meeting.at: "soon" is not a date-time string, which a Date is made of`. */
  describe(): string {
    const path = this.path.map((key) => (typeof key === "number" ? `[${key}]` : `.${key}`)).join("");
    return `${path.replace(/^\./, "")}: ${JSON.stringify(this.text)} is not a date-time string, which a Date is made of`;
  }
}

/**
 * RFC 3339's date-time, as the validator's `date-time` format (ajv-formats') admits it: a `T`,
 * `t` or a space between date and time, `z` or `Z`, an offset with or without its colon or
 * its minutes, a leap second. `new Date(text)` is exact only for ECMAScript's own format
 * (`2026-01-02T03:04:05.000Z`); how it reads any other is left to the engine, and V8 makes an
 * Invalid Date of an offset without minutes and of a leap second (test/runtime.test.ts). So the
 * fields are read here.
 */
const DATE_TIME = /^(\d{4})-(\d\d)-(\d\d)[Tt\s](\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:[Zz]|([+-])(\d\d)(?::?(\d\d))?)$/;

/**
 * The Date a date-time string stands for. A Date holds milliseconds: further digits are cut,
 * as V8 cuts them. A leap second (`23:59:60Z`), which a Date cannot hold, is read as second 59,
 * as Temporal reads it.
 */
export function dateOf(text: string): Date {
  const fields = DATE_TIME.exec(text);
  if (!fields) throw new DateError(text);
  const [, year, month, day, hours, minutes, seconds, fraction, sign, offsetHours, offsetMinutes] = fields;
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0 to 99 as 1900 to 1999.
  date.setUTCFullYear(+year, +month - 1, +day);
  const milliseconds = fraction === undefined ? 0 : +fraction.slice(0, 3).padEnd(3, "0");
  date.setUTCHours(+hours, +minutes, Math.min(+seconds, 59), milliseconds);
  if (sign === undefined) return date;
  const offset = (+offsetHours * 60 + +(offsetMinutes ?? 0)) * 60_000;
  return new Date(date.getTime() - (sign === "-" ? -offset : offset));
}

/** A plan's place, turned into a function: the value with its Dates made, or the value itself when none were. */
type Revive = (value: unknown) => unknown;

const hasOwn = Object.prototype.hasOwnProperty;

/** `object[key]` revived: into `out`, a copy of `object` made at the first change, which is returned. */
function put(
  object: Record<string, unknown>,
  out: Record<string, unknown> | undefined,
  key: string,
  revive: Revive,
): Record<string, unknown> | undefined {
  const item = object[key];
  const made = at(key, item, revive);
  if (made === item) return out;
  out ??= { ...object };
  setOwn(out, key, made);
  return out;
}

/** Runs `revive` on a part of the value; a DateError inside learns where it was. */
function at(key: string | number, value: unknown, revive: Revive): unknown {
  try {
    return revive(value);
  } catch (error) {
    if (error instanceof DateError) error.path.unshift(key);
    throw error;
  }
}

/** Builds the revivers of one date plan: a closure per node, each named plan built once. */
class ReviverBuilder {
  private readonly named = new Map<string, Revive>();

  constructor(private readonly defs: Record<string, DateNode>) {}

  compile(node: DateNode): Revive {
    if (node.ref !== undefined) return this.ref(node.ref);
    const date = node.date === true;
    const keep = node.keep && new Set(node.keep);
    const array = this.array(node);
    const object = this.object(node);
    return (value) => {
      if (typeof value === "string") return date && !keep?.has(value) ? dateOf(value) : value;
      if (value === null || typeof value !== "object") return value;
      if (Array.isArray(value)) return array ? array(value) : value;
      return object ? object(value as Record<string, unknown>) : value;
    };
  }

  /** A named plan, compiled once (a recursive type's plan refers to itself through this function). */
  private ref(name: string): Revive {
    let revive = this.named.get(name);
    if (!revive) {
      if (!hasOwn.call(this.defs, name))
        throw new Error(
          `the Dates of its arguments refer to ${JSON.stringify(name)}, which the contract does not define`,
        );
      const plan: { compiled?: Revive } = {};
      revive = (value) => plan.compiled!(value);
      this.named.set(name, revive);
      plan.compiled = this.compile(this.defs[name]);
    }
    return revive;
  }

  private array(node: DateNode): ((items: unknown[]) => unknown[]) | undefined {
    const prefix = (node.prefixItems ?? []).map((item) => (item ? this.compile(item) : undefined));
    const rest = node.items && this.compile(node.items);
    if (!rest && !prefix.some(Boolean)) return undefined;
    return (items) => {
      let out: unknown[] | undefined;
      const end = rest ? items.length : Math.min(items.length, prefix.length);
      for (let i = 0; i < end; i++) {
        const revive = i < prefix.length ? prefix[i] : rest;
        if (!revive) continue;
        const item = items[i];
        const made = at(i, item, revive);
        if (made !== item) (out ??= items.slice())[i] = made;
      }
      return out ?? items;
    };
  }

  private object(node: DateNode): ((object: Record<string, unknown>) => Record<string, unknown>) | undefined {
    const declared = node.properties ?? {};
    const keys = Object.keys(declared).filter((key) => declared[key]);
    const revivers = keys.map((key) => this.compile(declared[key]!));
    const other = node.additionalProperties && this.compile(node.additionalProperties);
    if (!other && keys.length === 0) return undefined;
    const listed = new Set(Object.keys(declared));
    return (object) => {
      let out: Record<string, unknown> | undefined;
      for (let i = 0; i < keys.length; i++)
        if (hasOwn.call(object, keys[i])) out = put(object, out, keys[i], revivers[i]);
      if (other) for (const key of Object.keys(object)) if (!listed.has(key)) out = put(object, out, key, other);
      return out ?? object;
    };
  }
}

/**
 * The function that gives a tool's arguments their Dates: the arguments object with a Date
 * for each date-time string the plan points at (a copy, where there was one), or the object
 * itself when there was none. Throws (at registration) for a plan that refers to a name it
 * does not define; a call throws a DateError for a string no Date is made of.
 */
export function dateReviver(plan: DatePlan): (args: Record<string, unknown>) => Record<string, unknown> {
  const revive = new ReviverBuilder(plan.defs ?? {}).compile(plan.arguments);
  return (args) => revive(args) as Record<string, unknown>;
}
