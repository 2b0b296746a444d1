/**
 * The URI template parser (transformer/uri-template.ts) against the SDK's `UriTemplate`, which
 * the runtime matches URIs with: the parser must read the variables the SDK reads, and refuse
 * every template whose variables the SDK's `match` would not give back.
 */
import fc from "fast-check";
import { UriTemplate } from "@modelcontextprotocol/server";
import { parseUriTemplate, type TemplateVariable } from "../../transformer/uri-template";

const variable = (name: string, operator: TemplateVariable["operator"] = "", explode = false): TemplateVariable => ({
  name,
  operator,
  explode,
});

test("templates the runtime serves: their variables, operators and explode modifiers, in order", () => {
  const cases: [string, TemplateVariable[]][] = [
    ["config://app", []],
    ["users://{id}/profile", [variable("id")]],
    ["notes://{+path}", [variable("path", "+")]],
    ["files://{/segments*}", [variable("segments", "/", true)]],
    ["tags://{ids*}", [variable("ids", "", true)]],
    ["search://items{?q,limit}", [variable("q", "?"), variable("limit", "?")]],
    ["search://items{?q}{&page}", [variable("q", "?"), variable("page", "&")]],
    ["file://{name}{.ext}", [variable("name"), variable("ext", ".")]],
    ["a://{x.y}/{%41b}", [variable("x.y"), variable("%41b")]],
    ["a://{?ids*}", [variable("ids", "?", true)]],
  ];
  for (const [template, variables] of cases)
    expect([template, parseUriTemplate(template)]).toEqual([template, { variables }]);
});

test("templates the runtime cannot serve, each with the reason", () => {
  const cases: [string, string][] = [
    ["a://{x", 'the expression at character 5 is not closed (a "}" is missing)'],
    ["a://{x{y}", 'the expression at character 5 is not closed (a "}" is missing)'],
    ["a://x}", 'the "}" at character 6 closes no expression'],
    ["a://{}", "{}: a variable name is empty"],
    ["a://{x,}", "{x,}: a variable name is empty"],
    [
      "a://{ x }",
      '{ x }: " x " is not a variable name (RFC 6570: letters, digits, _ and %-encoded bytes, in parts joined by dots)',
    ],
    [
      "a://{x**}",
      '{x**}: "x*" is not a variable name (RFC 6570: letters, digits, _ and %-encoded bytes, in parts joined by dots)',
    ],
    [
      "a://{a..b}",
      '{a..b}: "a..b" is not a variable name (RFC 6570: letters, digits, _ and %-encoded bytes, in parts joined by dots)',
    ],
    [
      "a://{#x}",
      '{#x}: the operator "#" is not one the SDK\'s UriTemplate.match handles ("", "+", ".", "/", "?", "&")',
    ],
    [
      "a://{;x}",
      '{;x}: the operator ";" is not one the SDK\'s UriTemplate.match handles ("", "+", ".", "/", "?", "&")',
    ],
    ["a://{=x}", '{=x}: "=" is an operator RFC 6570 reserves for future extensions'],
    [
      "a://{x:3}",
      "{x:3}: the prefix modifier (:3) is not one the SDK's UriTemplate.match handles: match the whole value",
    ],
    [
      "a://{x,y}",
      '{x,y}: the SDK\'s UriTemplate.match matches only the first variable of an expression with several, unless its operator is "?" or "&": write one expression per variable',
    ],
    [
      "a://{/x,y}",
      '{/x,y}: the SDK\'s UriTemplate.match matches only the first variable of an expression with several, unless its operator is "?" or "&": write one expression per variable',
    ],
    [
      "a://{x}/{x}",
      "{x}: the variable x appears twice, and the SDK's UriTemplate.match keeps only its last value: use it once",
    ],
    [
      "a://b{?x}{?y}",
      '{?y}: the query has begun already (a "?" or "&" expression comes before): continue it with "&" ({&b}), or put the variables into one expression ({?a,b})',
    ],
    [
      "a://b{&x}{?y}",
      '{?y}: the query has begun already (a "?" or "&" expression comes before): continue it with "&" ({&b}), or put the variables into one expression ({?a,b})',
    ],
  ];
  for (const [template, problem] of cases)
    expect([template, parseUriTemplate(template)]).toEqual([template, { problem }]);
});

test("differential: a template the parser accepts has the SDK's variableNames, and the SDK's match gives every variable back", () => {
  const literal = fc.constantFrom("u://", "/", "a", ".", "?", "&", "-", "%", "x=1", ",", "*", ":", " ", "}", "{");
  const name = fc.constantFrom("x", "y", "id", "a.b", "%41", "", " x", "x:3", "x*", "*x", "_", "1");
  const expression = fc
    .tuple(
      fc.constantFrom("", "+", "#", ".", "/", "?", "&", ";", "=", "!"),
      fc.array(name, { minLength: 1, maxLength: 3 }),
      fc.boolean(),
    )
    .map(([operator, names, explode]) => `{${operator}${names.map((n) => n + (explode ? "*" : "")).join(",")}}`);
  let servedWithVariables = 0;
  fc.assert(
    fc.property(fc.array(fc.oneof(literal, expression, expression), { maxLength: 6 }), (parts) => {
      const template = parts.join("");
      const parsed = parseUriTemplate(template);
      if ("problem" in parsed) return;
      const sdk = new UriTemplate(template);
      const names = parsed.variables.map((v) => v.name);
      expect([template, sdk.variableNames]).toEqual([template, names]);
      // A URI of the template (one item for an exploded variable: the SDK expands `{/x*}` with
      // "/" between items but matches "," between them), matched back: every variable has its value.
      const values = Object.fromEntries(parsed.variables.map((v, i) => [v.name, v.explode ? [`v${i}`] : `v${i}`]));
      const uri = sdk.expand(values);
      expect([template, uri, Object.keys(sdk.match(uri) ?? {}).sort()]).toEqual([template, uri, [...names].sort()]);
      if (names.length) servedWithVariables++;
    }),
    { numRuns: 10_000, seed: 6570 },
  );
  // The property held on templates that have variables, not only on plain text.
  expect(servedWithVariables).toBeGreaterThan(200);
});

test("a template the SDK cannot read at all is one the parser refuses", () => {
  for (const template of ["a://{x", "a://{/x", "{"]) {
    expect(() => new UriTemplate(template)).toThrow("Unclosed template expression");
    expect(parseUriTemplate(template)).toHaveProperty("problem");
  }
});
