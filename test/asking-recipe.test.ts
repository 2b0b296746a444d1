/**
 * docs/asking.md's server followed as a user follows it: a project set up as the README's quick
 * start (TypeScript 5.9 as it pins it, and TypeScript 7 as docs/typescript-7.md installs it), the
 * page's src/server.ts in place of the quick start's, built with the quick start's build command,
 * and the page's client script run as written (the official v2 client, which speaks 2025-11-25
 * by default: the questions are requests over the connection) and pinned to 2026-07-28 (the
 * questions are `input_required` answers and the call is retried): both print exactly what the
 * page shows.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { documentedBlock } from "./support/documentation";
import { installedAsReadme, readmeQuickStart, runAsWritten, shell, typescript7QuickStart } from "./support/recipes";

const SETUPS = [
  { name: "the README's quick start (TypeScript 5.9)", setup: readmeQuickStart },
  { name: "docs/typescript-7.md's quick start (TypeScript 7)", setup: typescript7QuickStart },
];

/** The page's client, as written, with the v2 client pinned to 2026-07-28. */
function pinnedTo2026(client: string): string {
  const written = "{ capabilities: { elicitation: {}, sampling: {} } },";
  expect(client).toContain(written);
  return client.replace(
    written,
    '{ capabilities: { elicitation: {}, sampling: {} }, versionNegotiation: { mode: { pin: "2026-07-28" } } },',
  );
}

describe.each(SETUPS)("$name", ({ setup }) => {
  let folder: string;
  let project: string;
  beforeAll(() => {
    folder = installedAsReadme();
    project = setup(folder);
    fs.writeFileSync(path.join(project, "src", "server.ts"), documentedBlock("asking:src/server.ts"));
    runAsWritten(documentedBlock("quickstart:client-install"), project);
  }, 600_000);
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  test("the quick start's build command builds the page's server with no diagnostic", () => {
    const build = documentedBlock("quickstart:try").split("\n")[0];
    expect(build).toBe("npx typemcp build");
    expect(shell(build, project)).toEqual({
      status: 0,
      stdout: "2 tool registrations built: no errors, 0 warnings.\n",
      stderr: "",
    });
  });

  test("the page's client prints what the page shows, on 2025-11-25 (as written) and on 2026-07-28", () => {
    const client = documentedBlock("asking:client.mjs");
    const expected = documentedBlock("asking:client-output");
    fs.writeFileSync(path.join(project, "client.mjs"), client);
    expect(runAsWritten("node client.mjs", project)).toBe(expected);
    fs.writeFileSync(path.join(project, "client-2026.mjs"), pinnedTo2026(client));
    expect(runAsWritten("node client-2026.mjs", project)).toBe(expected);
  });
});
