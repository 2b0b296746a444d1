/**
 * docs/prompts-and-resources.md's server followed as a user follows it: a project set up as the
 * README's quick start (TypeScript 5.9 as it pins it, and TypeScript 7 as docs/typescript-7.md
 * installs it), the page's src/server.ts in place of the quick start's, built with the quick
 * start's build command, and the page's client script run as written (the official v2 client,
 * which speaks 2025-11-25 by default) and pinned to 2026-07-28: both print exactly what the
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

/** The page's client, as written, with the v2 client pinned to 2026-07-28 (what a 2026-07-28 client sends). */
function pinnedTo2026(client: string): string {
  const written = 'new Client({ name: "notes-client", version: "1.0.0" })';
  expect(client).toContain(written);
  return client.replace(
    written,
    'new Client({ name: "notes-client", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } })',
  );
}

describe.each(SETUPS)("$name", ({ setup }) => {
  let folder: string;
  let project: string;
  beforeAll(() => {
    folder = installedAsReadme();
    project = setup(folder);
    fs.writeFileSync(path.join(project, "src", "server.ts"), documentedBlock("server:src/server.ts"));
    runAsWritten(documentedBlock("quickstart:client-install"), project);
  }, 600_000);
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  test("the quick start's build command builds the page's server with no diagnostic", () => {
    const build = documentedBlock("quickstart:try").split("\n")[0];
    expect(build).toBe("npx typemcp build");
    expect(shell(build, project)).toEqual({
      status: 0,
      stdout: "3 registrations (1 tool, 1 prompt, 1 resource) built: no errors, 0 warnings.\n",
      stderr: "",
    });
  });

  test("the page's client prints what the page shows, on 2025-11-25 (as written) and on 2026-07-28", () => {
    const client = documentedBlock("server:client.mjs");
    const expected = documentedBlock("server:client-output");
    fs.writeFileSync(path.join(project, "client.mjs"), client);
    expect(runAsWritten("node client.mjs", project)).toBe(expected);
    fs.writeFileSync(path.join(project, "client-2026.mjs"), pinnedTo2026(client));
    expect(runAsWritten("node client-2026.mjs", project)).toBe(expected);
  });
});
