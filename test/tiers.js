// The two test tiers, each an explicit list of suites (paths under test/). Every suite is in
// exactly one of them: test/tiers.test.ts checks that, and that both jest configs run these lists.

/**
 * `npm test` (jest.config.js): in jest's own processes, from the TypeScript sources, with no build,
 * no npm registry, no child processes and no benchmark.
 */
const fast = [
  // Unit tests, one module (or one family of modules) each.
  "unit/parsers.test.ts",
  "unit/formatters.test.ts",
  "unit/keywords.test.ts",
  "unit/check.test.ts",
  "unit/generate.test.ts",
  "unit/linear-regexp.test.ts",
  "unit/uri-template.test.ts",
  "unit/json-text.test.ts",
  "unit/text-arguments.test.ts",
  "unit/stdio-lines.test.ts",
  "unit/ts7-stopped.test.ts",
  "unit/place.test.ts",
  "unit/typescript.test.ts",
  "unit/diagnostic-format.test.ts",
  // The runtime, the transformer and the editor plugin, in process.
  "runtime.test.ts",
  "faults.test.ts",
  "check-vs-ajv.test.ts",
  "transformer.test.ts",
  "prompts-and-resources.test.ts",
  "language-service.test.ts",
  // Every fixture through the official client, in memory; the context a tool gets.
  "fixtures.test.ts",
  // The forms of ctx.elicit<T>(): what the transformer writes into each call.
  "forms.test.ts",
  "context.test.ts",
  // Prompts, resources, templates and completion, fed contracts written by hand.
  "prompts-resources.test.ts",
  // resources/read on its short paths: the same bytes and errors as the long ones.
  "resource-read.test.ts",
  // Asking the client from a call (elicitation, sampling, roots), fed forms written by hand, on both revisions.
  "ask.test.ts",
  // examples/everything from source to answer, through the official clients.
  "everything.test.ts",
  // Streamable HTTP through the Web-standard entry (Request → Response), in process.
  "http-handler.test.ts",
  // OpenTelemetry spans per request, in memory and through mcp.handler(), read from the in-memory exporter.
  "traces.test.ts",
  // What a Cloudflare Worker's top level allows: no stdio module, no random value until a request.
  "workers-start.test.ts",
  // auth through mcp.handler(): the metadata, the 401 and 403 challenges, ctx.authInfo, with a verifier of its own.
  "auth.test.ts",
  // Generated values and types against TypeScript and Ajv.
  "property.test.ts",
  "oracle.test.ts",
  "fuzz.test.ts",
  "tiers.test.ts",
  // What npm ci installs (package-lock.json's engines) and what the README and docs/ say and link.
  "engines.test.ts",
  "documentation.test.ts",
  // The sources import one another without a cycle; what the comments and pages name exists.
  "imports.test.ts",
  "references.test.ts",
];

/**
 * `npm run test:e2e` (jest.e2e.config.js, after `npm run build`): the built package in real
 * processes (stdio, HTTP sockets, the CLI, the plugin's own entry), the packed tarball installed
 * from the registry with each toolchain, the conformance suite, memory over 100,000 calls, types
 * built to break the compiler, every way tsc builds, and the benchmark harnesses on small inputs.
 */
const e2e = [
  "stdio.test.ts",
  // docs/prompts-and-resources.md followed as written: its server built, its client run, on TypeScript 5.9 and 7.
  "prompts-resources-recipe.test.ts",
  // docs/asking.md followed as written: its server built, its client answering, on TypeScript 5.9 and 7.
  "asking-recipe.test.ts",
  "http.test.ts",
  // auth with jwt() on real signed JWTs, the JWKS on loopback: mcp.run in its own process, and mcp.handler().
  "auth-http.test.ts",
  "third-party-client.test.ts",
  "hostile.test.ts",
  "lifecycle.test.ts",
  "conformance.test.ts",
  // A call that asks the client, its rounds spread over two processes by a round-robin proxy.
  "ask-processes.test.ts",
  "memory.test.ts",
  "cli.test.ts",
  "plugin-entry.test.ts",
  "build-modes.test.ts",
  "pathological.test.ts",
  // TypeScript 7 (its compiler and its API are processes): typemcp build, check and manifest on
  // the fixtures against TypeScript 5.9's, and the generated types compiled both ways.
  "typescript7.test.ts",
  "fuzz7.test.ts",
  // What typemcp build asks TypeScript 7.1's API process, counted: per tool, only its file's syntax tree.
  "ts7-requests.test.ts",
  "consumer.test.ts",
  "toolchains.test.ts",
  // docs/deployment.md's Workers, Deno and Bun recipes and the README's Inspector commands, on
  // those runtimes as npm installs them (into .build/runtimes).
  "runtimes.test.ts",
  "bench.test.ts",
];

/** A tier's suites as jest's testMatch. */
const testMatch = (suites) => suites.map((suite) => `<rootDir>/test/${suite}`);

module.exports = { fast, e2e, testMatch };
