/**
 * RFC 6570 URI templates, as far as typemcp serves them. The runtime matches a URI against a
 * template with the SDK's `UriTemplate.match` (`@modelcontextprotocol/server`), which reads
 * variable names as this parser does (test/unit/uri-template.test.ts compares the two) but
 * matches only part of RFC 6570: the operators "" (simple), "+", ".", "/", "?" and "&", the
 * explode modifier `*`, and one variable per expression except after "?" and "&" (`{x,y}`
 * matches only x). A template that needs more is refused at build time, with the reason,
 * instead of matching nothing at run time. The SDK itself is not loaded here: the transformer
 * runs in every build, and the SDK takes long to load.
 */

/** The operators `UriTemplate.match` handles. */
export type Operator = "" | "+" | "." | "/" | "?" | "&";

export interface TemplateVariable {
  name: string;
  operator: Operator;
  /** `{ids*}`: the variable takes a list. */
  explode: boolean;
}

const MATCHED = new Set(["+", ".", "/", "?", "&"]);
/** RFC 6570's other operators: "#" and ";" are level 3, the rest reserved for future extensions. */
const UNMATCHED = new Set(["#", ";"]);
const RESERVED = new Set(["=", ",", "!", "@", "|"]);
/** RFC 6570's varname: letters, digits, `_` and %-encoded bytes, in parts joined by single dots. */
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

/**
 * The template's variables, in the order they appear, or why typemcp cannot serve it. A URI
 * with no expression is a fixed URI (no variables). Every `{` and `}` must belong to an
 * expression: RFC 6570 allows neither in a template's literal text.
 */
export function parseUriTemplate(template: string): { variables: TemplateVariable[] } | { problem: string } {
  const variables: TemplateVariable[] = [];
  for (let at = 0; at < template.length; at++) {
    if (template[at] === "}") return { problem: `the "}" at character ${at + 1} closes no expression` };
    if (template[at] !== "{") continue;
    const end = template.indexOf("}", at);
    const next = template.indexOf("{", at + 1);
    if (end === -1 || (next !== -1 && next < end))
      return { problem: `the expression at character ${at + 1} is not closed (a "}" is missing)` };
    const expression = template.slice(at, end + 1);
    const found = parseExpression(expression);
    if (typeof found === "string") return { problem: `${expression}: ${found}` };
    // RFC 6570 starts a query at every "?" expression; the SDK writes one after a "?" or "&" expression with "&".
    if (found[0].operator === "?" && variables.some((v) => v.operator === "?" || v.operator === "&"))
      return {
        problem: `${expression}: the query has begun already (a "?" or "&" expression comes before): continue it with "&" ({&b}), or put the variables into one expression ({?a,b})`,
      };
    for (const variable of found) {
      if (variables.some((v) => v.name === variable.name))
        return {
          problem: `${expression}: the variable ${variable.name} appears twice, and the SDK's UriTemplate.match keeps only its last value: use it once`,
        };
      variables.push(variable);
    }
    at = end;
  }
  return { variables };
}

/** One `{...}` expression's variables, or what is wrong with it. */
function parseExpression(expression: string): TemplateVariable[] | string {
  const body = expression.slice(1, -1);
  const first = body.charAt(0);
  if (UNMATCHED.has(first))
    return `the operator "${first}" is not one the SDK's UriTemplate.match handles ("", "+", ".", "/", "?", "&")`;
  if (RESERVED.has(first)) return `"${first}" is an operator RFC 6570 reserves for future extensions`;
  const operator = (MATCHED.has(first) ? first : "") as Operator;
  const specs = body.slice(operator.length).split(",");
  const variables: TemplateVariable[] = [];
  for (const spec of specs) {
    if (spec === "") return "a variable name is empty";
    const explode = spec.endsWith("*");
    const name = explode ? spec.slice(0, -1) : spec;
    if (/^[^:]+:[0-9]+$/.test(name))
      return `the prefix modifier (${name.slice(name.indexOf(":"))}) is not one the SDK's UriTemplate.match handles: match the whole value`;
    if (!VARNAME.test(name))
      return `${JSON.stringify(name)} is not a variable name (RFC 6570: letters, digits, _ and %-encoded bytes, in parts joined by dots)`;
    variables.push({ name, operator, explode });
  }
  if (variables.length > 1 && operator !== "?" && operator !== "&")
    return `the SDK's UriTemplate.match matches only the first variable of an expression with several, unless its operator is "?" or "&": write one expression per variable`;
  return variables;
}

/** A variable as the template writes it, for messages: `{id}`, `{/segments*}`. */
export function variableText(variable: TemplateVariable): string {
  return `{${variable.operator}${variable.name}${variable.explode ? "*" : ""}}`;
}
