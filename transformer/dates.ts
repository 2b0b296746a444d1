import type * as ts from "typescript";
import type { DateNode, DatePlan } from "../contract/contract";
import type { Definition, Keywords, Model, ObjectModel } from "./model/model";
import type { Problem } from "./problems";
import { setOwn } from "../contract/own";

/**
 * Where a tool's arguments hold Dates: the plan the runtime follows to give the tool a Date
 * for each date-time string its parameter types say is one (runtime/dates.ts). The runtime
 * never looks at types, so the plan says it all: only the parts of the arguments that can hold
 * a Date, with named types (recursive ones included) described once, by name.
 *
 * The plan is read from the published schema's side of a union: on the wire a value is only
 * JSON, so the members of a union are merged by JSON type (every object member's properties
 * together, every array member's items together). A string goes to the tool as a Date where
 * every member that admits it is a Date, or a string literal that stays as it is (`Date |
 * "now"`). Where another member admits strings too (`Date | string`, or a member of another
 * object branch with the same key), no rule can tell which the sender meant: that is reported,
 * at build time, rather than guessed (docs/rules.md, "Dates").
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const propertyPath = (at: string, name: string) =>
  IDENTIFIER.test(name) ? `${at}.${name}` : `${at}[${JSON.stringify(name)}]`;

/** A model's identity: a reference is its definition (a recursive use makes a new reference object). */
const keyOf = (model: Model): object => (model.kind === "ref" ? model.definition : model);

/** The models directly inside a model, as the schema nests them. */
function childrenOf(model: Model): Model[] {
  switch (model.kind) {
    case "array":
      return [model.items];
    case "tuple":
      return model.rest ? [...model.elements, model.rest] : model.elements;
    case "object":
      return [
        ...model.properties.filter((p) => !p.absent).map((p) => p.model),
        ...(model.additional ? [model.additional] : []),
        ...(model.patterns ?? []).map((p) => p.model),
      ];
    case "union":
      return model.members;
    case "ref":
      return [model.definition.model];
    default:
      return [];
  }
}

const isDate = (model: Model): boolean => model.kind === "string" && model.date === true;

/**
 * Whether a Date is anywhere inside a model. Memoized per model for the whole program (models
 * are shared between tools): a walk that finds none marks everything it saw, so that the
 * question costs each model once, and a tool without Dates costs one lookup per parameter.
 */
const holding = new WeakMap<object, boolean>();

function holdsDate(root: Model): boolean {
  const known = holding.get(keyOf(root));
  if (known !== undefined) return known;
  const seen = new Set<object>();
  const visit = (model: Model): boolean => {
    const key = keyOf(model);
    const answer = holding.get(key);
    if (answer !== undefined) return answer;
    // Met again (a recursive type): whether it holds a Date is what the whole walk finds.
    if (seen.has(key)) return false;
    seen.add(key);
    const found = isDate(model) || childrenOf(model).some(visit);
    if (found) holding.set(key, true);
    return found;
  };
  const found = visit(root);
  if (!found) for (const key of seen) holding.set(key, false);
  return found;
}

/** The members of the alternatives, unions opened (references kept: they name what may be shared). */
function flatten(models: readonly Model[]): Model[] {
  const out: Model[] = [];
  const seen = new Set<object>();
  const add = (model: Model): void => {
    if (model.kind === "union") return model.members.forEach(add);
    if (seen.has(keyOf(model))) return;
    seen.add(keyOf(model));
    out.push(model);
  };
  models.forEach(add);
  return out;
}

/** The alternatives with references resolved too: what a value at this place may be, one JSON shape each. */
function leavesOf(models: readonly Model[]): Model[] {
  const out: Model[] = [];
  const seen = new Set<object>();
  const add = (model: Model): void => {
    if (seen.has(keyOf(model))) return;
    seen.add(keyOf(model));
    if (model.kind === "union") model.members.forEach(add);
    else if (model.kind === "ref") add(model.definition.model);
    else out.push(model);
  };
  models.forEach(add);
  return out;
}

/** How a message names a member that admits strings besides a Date. */
function stringMember(model: Model): string {
  if (model.kind === "any") return "any value (any, unknown)";
  const format = model.keywords?.format;
  if (typeof format === "string") return `a string of format ${JSON.stringify(format)}`;
  if (typeof model.keywords?.pattern === "string") return "a string of a pattern (a template literal type)";
  return "a string";
}

const ids = new WeakMap<object, number>();
let nextId = 0;
const idOf = (model: Model): number => {
  const key = keyOf(model);
  let id = ids.get(key);
  if (id === undefined) ids.set(key, (id = nextId++));
  return id;
};

interface Entry {
  /** The `defs` name, once the plan is shared (a named type) or refers to itself (a recursive one). */
  name?: string;
  /** Named types are always shared; a merged union of them only when it recurs. */
  readonly shared: boolean;
  readonly title: string;
  busy: boolean;
  node?: DateNode;
}

/**
 * The Date plan of one tool's arguments. Problems (a string that could be a Date or something
 * else) are collected per parameter, with their paths, as the model's own problems are.
 */
export class DatePlanner {
  private readonly entries = new Map<string, Entry>();
  private readonly defs: Record<string, DateNode> = {};
  private readonly taken = new Set<string>();
  private problems: Problem[] = [];
  private readonly reported = new Set<string>();

  /** The plan of one argument (`model` at `path`), or undefined when it holds no Date. */
  plan(model: Model, path: string): DateNode | undefined {
    return holdsDate(model) ? this.alternatives([model], path) : undefined;
  }

  /** The problems found since the last call, with their paths. */
  takeProblems(): Problem[] {
    const problems = this.problems;
    this.problems = [];
    return problems;
  }

  /** The whole plan, given the arguments object's node. */
  result(root: DateNode): DatePlan {
    return Object.keys(this.defs).length ? { arguments: root, defs: this.defs } : { arguments: root };
  }

  private report(path: string, message: string): void {
    const key = `${path}\n${message}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.problems.push({ path, message });
  }

  /** The plan of a place whose value may be any of `models`. */
  private alternatives(models: readonly Model[], path: string): DateNode | undefined {
    const members = flatten(models);
    if (!members.some(holdsDate)) return undefined;
    // Keyed by what a value here may be: a union met again through another name is the same place.
    const leaves = leavesOf(members);
    const key = leaves
      .map(idOf)
      .sort((a, b) => a - b)
      .join(",");
    let entry = this.entries.get(key);
    if (entry) {
      if (!entry.busy) return entry.name ? { ref: entry.name } : entry.node;
      entry.name ??= this.nameFor(entry.title);
      return { ref: entry.name };
    }
    const named = members.length === 1 && members[0].kind === "ref" ? members[0].definition : undefined;
    entry = { shared: named !== undefined, title: named ? named.name : this.titleOf(members), busy: true };
    this.entries.set(key, entry);
    if (entry.shared) entry.name = this.nameFor(entry.title);
    const node = this.merge(leaves, path);
    entry.busy = false;
    entry.node = node;
    if (!entry.name) return node;
    this.defs[entry.name] = node ?? {};
    return { ref: entry.name };
  }

  private titleOf(members: readonly Model[]): string {
    const names = members.filter((m) => m.kind === "ref").map((m) => (m as { definition: Definition }).definition.name);
    return names.length ? names.join("_or_") : "Union";
  }

  private nameFor(title: string): string {
    let name = title;
    for (let n = 2; this.taken.has(name); n++) name = `${title}_${n}`;
    this.taken.add(name);
    return name;
  }

  /** The merged plan of values that may be any of these shapes (no unions, no references among them). */
  private merge(leaves: readonly Model[], path: string): DateNode | undefined {
    const node: DateNode = {};
    const anyValue = leaves.find((m) => m.kind === "any");

    // Strings: a Date's, a literal's that stays, or another member's that no one can tell from a Date's.
    const dates = leaves.filter(isDate);
    for (const date of dates) this.checkFormat(date, date.keywords, path);
    if (dates.length) {
      const others = leaves.filter((m) => (m.kind === "string" && !isDate(m)) || m.kind === "any");
      if (others.length) {
        const named = [...new Set(others.map(stringMember))].join(" or ");
        this.report(
          path,
          `a string here may be a Date or ${named}, and nothing in the JSON says which: let only the Date be here to receive a Date, or declare a string to receive the string as sent`,
        );
      } else {
        node.date = true;
        const keep = leaves.flatMap((m) => (m.kind === "literal" && typeof m.value === "string" ? [m.value] : []));
        if (keep.length) node.keep = keep;
      }
    }

    // Arrays and tuples: each position's alternatives are what every array member may hold there.
    const tuples = leaves.filter((m) => m.kind === "tuple");
    const arrays: Model[] = leaves.flatMap((m) =>
      m.kind === "array" ? [m.items] : m.kind === "object" && m.numberKeys && m.patterns ? [m.patterns[0].model] : [],
    );
    if (anyValue) arrays.push(anyValue);
    if (tuples.length || arrays.length) {
      const length = Math.max(0, ...tuples.map((t) => t.elements.length));
      const prefix: (DateNode | null)[] = [];
      for (let i = 0; i < length; i++) {
        const at = tuples.flatMap((t) => (i < t.elements.length ? [t.elements[i]] : t.rest ? [t.rest] : []));
        prefix.push(this.alternatives([...at, ...arrays], `${path}[${i}]`) ?? null);
      }
      const rest = this.alternatives([...tuples.flatMap((t) => (t.rest ? [t.rest] : [])), ...arrays], `${path}[]`);
      if (rest) node.items = rest;
      // Positions past prefixItems are the items': with items, every position before them stays, null or not.
      else while (prefix.length && prefix[prefix.length - 1] === null) prefix.pop();
      if (prefix.length) node.prefixItems = prefix;
    }

    // Objects: each key's alternatives are what every object member may hold under it.
    const objects = leaves.filter((m): m is ObjectModel => m.kind === "object");
    if (objects.length) this.objects(objects, anyValue, path, node);

    return Object.keys(node).length ? node : undefined;
  }

  private objects(objects: readonly ObjectModel[], anyValue: Model | undefined, path: string, node: DateNode): void {
    /** What an object member holds under a key it does not declare. */
    const undeclared = (o: ObjectModel): Model[] => [
      ...(o.additional ? [o.additional] : []),
      ...(o.patterns ?? []).map((p) => p.model),
    ];
    const names: string[] = [];
    for (const o of objects) for (const p of o.properties) if (!p.absent && !names.includes(p.name)) names.push(p.name);
    const properties: Record<string, DateNode | null> = {};
    let revived = false;
    for (const name of names) {
      const at: Model[] = [];
      for (const o of objects) {
        const property = o.properties.find((p) => p.name === name && !p.absent);
        if (property) {
          at.push(property.model);
          this.checkFormat(property.model, property.keywords, propertyPath(path, name));
        } else at.push(...undeclared(o));
      }
      if (anyValue) at.push(anyValue);
      const sub = this.alternatives(at, propertyPath(path, name));
      setOwn(properties, name, sub ?? null);
      if (sub) revived = true;
    }
    const others = [...objects.flatMap(undeclared), ...(anyValue ? [anyValue] : [])];
    const additional = this.alternatives(others, `${path}[key]`);
    if (additional) node.additionalProperties = additional;
    if (!revived && !additional) return;
    // Declared keys whose value holds no Date are listed (as null) only where other keys are revived.
    if (!additional) for (const name of Object.keys(properties)) if (properties[name] === null) delete properties[name];
    if (Object.keys(properties).length) node.properties = properties;
  }

  /** A Date under a format of its own (`@format date`, `Date & Format<"date">`): the strings it admits are no Date's. */
  private checkFormat(model: Model, keywords: Keywords | undefined, path: string): void {
    const format = keywords?.format;
    if (format === undefined || format === "date-time" || !leavesOf([model]).some(isDate)) return;
    this.report(
      path,
      `a Date is sent and received as a date-time string, which the format ${JSON.stringify(format)} contradicts: leave the format out, or declare a string (string & Format<${JSON.stringify(format)}>)`,
    );
  }
}

/** One argument (or the destructured parameter, as a whole), as the compiler reads it. */
export interface DateInput {
  name: string;
  model: Model;
  /** Where its problems are reported. */
  node: ts.Node;
  /** No JSON value stands for it: never sent (see input-schema.ts). */
  absent?: true;
}

/**
 * The Date plan of a tool's arguments, undefined when they hold no Date, and the problems
 * found, per argument. `whole`: the one input is the destructured parameter, whose properties
 * are the arguments (its plan is the arguments object's).
 */
export function datesOf(
  inputs: readonly DateInput[],
  whole: boolean,
): { plan?: DatePlan; problems: { input: DateInput; problems: Problem[] }[] } {
  const planner = new DatePlanner();
  const found: { input: DateInput; problems: Problem[] }[] = [];
  const properties: Record<string, DateNode | null> = {};
  let root: DateNode | undefined;
  for (const input of inputs) {
    if (input.absent) continue;
    const node = planner.plan(input.model, input.name);
    const problems = planner.takeProblems();
    if (problems.length) found.push({ input, problems });
    if (!node) continue;
    if (whole) root = node;
    else setOwn(properties, input.name, node);
  }
  if (Object.keys(properties).length) root = { properties };
  return { plan: root && planner.result(root), problems: found };
}
