import type { Definition, Model } from "./model/model";

/** A part of a tool's type that has no JSON form, and where it sits: `result.items[].owner`. */
export interface Problem {
  path: string;
  message: string;
  /** No value of this part survives JSON.stringify (see the model's `lost`). */
  lost?: true;
  /** The note that more problems were found than are listed. */
  more?: true;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Problems listed per parameter or result, at most: a shared bad part can sit at very many paths. */
export const MAX_PROBLEMS = 20;

/**
 * Walks a tool's model from its root (`result`, or a parameter's name) and lists every
 * unsupported part with its path. Models are shared between tools, so problems are found
 * here, per use, rather than when the type was parsed.
 */
export function findProblems(model: Model, path: string): Problem[] {
  const problems: Problem[] = [];
  const seen = new Set<Definition>();
  let more = false;
  const walk = (m: Model, at: string): void => {
    if (more) return;
    switch (m.kind) {
      case "unsupported":
        if (problems.length === MAX_PROBLEMS) more = true;
        else problems.push(m.lost ? { path: at, message: m.message, lost: true } : { path: at, message: m.message });
        return;
      case "array":
        return walk(m.items, `${at}[]`);
      case "tuple":
        m.elements.forEach((element, i) => walk(element, `${at}[${i}]`));
        if (m.rest) walk(m.rest, `${at}[]`);
        return;
      case "object":
        for (const p of m.properties)
          if (!p.absent)
            walk(p.model, IDENTIFIER.test(p.name) ? `${at}.${p.name}` : `${at}[${JSON.stringify(p.name)}]`);
        if (m.additional) walk(m.additional, `${at}[key]`);
        for (const { model } of m.patterns ?? []) walk(model, `${at}[key]`);
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
  if (more)
    problems.push({ path, message: `...and more: only the first ${MAX_PROBLEMS} problems are listed`, more: true });
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
