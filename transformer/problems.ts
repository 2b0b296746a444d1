import { backtrackingReason } from "../runtime/linear-regexp";
import type { Definition, Keywords, Model } from "./model/model";

/** A part of a tool's type that has no JSON form, and where it sits: `result.items[].owner`. */
export interface Problem {
  path: string;
  message: string;
  /** No value of this part survives JSON.stringify (see the model's `lost`). */
  lost?: true;
  /** A JSDoc tag typemcp cannot use, left out of the schema (see the model's `tagProblems`): the schema holds without it. */
  tag?: true;
  /** The note that more problems were found than are listed (`lost` if one of them is, `tag` if all of them are). */
  more?: true;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Problems listed per parameter or result, at most: a shared bad part can sit at very many paths. */
export const MAX_PROBLEMS = 20;

/**
 * Visits every place of a model from its root, with its path (`result.items[].owner`): each
 * node, and each property with its own annotations, once per named type (a recursive type is
 * walked once).
 */
function walkPlaces(
  model: Model,
  path: string,
  visit: {
    node(m: Model, at: string): void;
    property(p: { tagProblems?: string[]; keywords?: Keywords }, at: string): void;
  },
): void {
  const seen = new Set<Definition>();
  const walk = (m: Model, at: string): void => {
    visit.node(m, at);
    switch (m.kind) {
      case "array":
        return walk(m.items, `${at}[]`);
      case "tuple":
        m.elements.forEach((element, i) => walk(element, `${at}[${i}]`));
        if (m.rest) walk(m.rest, `${at}[]`);
        return;
      case "object":
        for (const p of m.properties) {
          if (p.absent) continue;
          const place = IDENTIFIER.test(p.name) ? `${at}.${p.name}` : `${at}[${JSON.stringify(p.name)}]`;
          visit.property(p, place);
          walk(p.model, place);
        }
        if (m.additional) walk(m.additional, `${at}[key]`);
        for (const { model: value } of m.patterns ?? []) walk(value, `${at}[key]`);
        return;
      case "union":
        for (const member of m.members) walk(member, at);
        return;
      case "ref":
        if (seen.has(m.definition)) return;
        seen.add(m.definition);
        return walk(m.definition.model, at);
    }
  };
  walk(model, path);
}

/**
 * Walks a tool's model from its root (`result`, or a parameter's name) and lists every
 * unsupported part, and every JSDoc tag left out, with its path. Models are shared between tools, so problems are found
 * here, per use, rather than when the type was parsed.
 */
export function findProblems(model: Model, path: string): Problem[] {
  const problems: Problem[] = [];
  // Beyond the listed ones, what the others are: the note says so, for the caller to decide on the whole.
  let more = false;
  let moreLost = false;
  let moreUntagged = false;
  const report = (problem: Problem): void => {
    if (problems.length < MAX_PROBLEMS) return void problems.push(problem);
    more = true;
    if (problem.lost) moreLost = true;
    if (!problem.tag) moreUntagged = true;
  };
  const tags = (messages: string[] | undefined, at: string): void => {
    for (const message of messages ?? []) report({ path: at, message, tag: true });
  };
  walkPlaces(model, path, {
    node(m, at) {
      tags(m.tagProblems, at);
      if (m.kind === "unsupported")
        report(m.lost ? { path: at, message: m.message, lost: true } : { path: at, message: m.message });
    },
    property: (p, at) => tags(p.tagProblems, at),
  });
  if (more) {
    const note: Problem = {
      path,
      message: `...and more: only the first ${MAX_PROBLEMS} problems are listed`,
      more: true,
    };
    if (moreLost) note.lost = true;
    if (!moreUntagged) note.tag = true;
    problems.push(note);
  }
  return problems;
}

/**
 * The problems no value of which survives JSON.stringify (see Problem.lost), with the note
 * that the list was cut short, if it was; none when every problem is of another kind.
 */
export function lostData(problems: Problem[]): Problem[] {
  const lost = problems.filter((p) => p.lost);
  return lost.length ? [...lost, ...problems.filter((p) => p.more)] : lost;
}

export function describeProblem(toolName: string, problem: Problem): string {
  return `${toolName}: ${problem.path}: ${problem.message}`;
}

/**
 * The patterns (`@pattern`, `Pattern<"...">`) in a tool's model that the linear-time engine
 * does not run (a backreference, a lookbehind, a counted repetition too large to write out),
 * with their paths: the schema keeps them, the runtime runs them on V8 within a time bound
 * (runtime/linear-regexp.ts), and the build warns (TS93007). `keywords` are the root's own
 * (a parameter's tags).
 */
export function findBacktrackingPatterns(model: Model, path: string, keywords?: Keywords): Problem[] {
  const found: Problem[] = [];
  const check = (k: Keywords | undefined, at: string): void => {
    const pattern = k?.pattern;
    if (typeof pattern !== "string" || found.length >= MAX_PROBLEMS) return;
    const reason = backtrackingReason(pattern);
    if (reason)
      found.push({
        path: at,
        message: `the pattern ${JSON.stringify(pattern)} holds ${reason}, which the linear-time engine does not run: V8's backtracking engine checks it, and a value it cannot decide in 100 ms is refused`,
      });
  };
  check(keywords, path);
  walkPlaces(model, path, { node: (m, at) => check(m.keywords, at), property: (p, at) => check(p.keywords, at) });
  return found;
}
