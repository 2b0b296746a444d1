import * as fs from "node:fs";
import * as path from "node:path";
import { documentedBlock } from "./documentation";
import { installedAsReadme, readmeQuickStart, runAsWritten, shell, typescript7QuickStart } from "./recipes";

/** A docs page's server and client, by their recipe markers, and what building the server prints. */
export interface PageRecipe {
  /** The recipe markers of the page's server, its client and the client's output (written out: the docs test looks for them). */
  markers: { server: string; client: string; output: string };
  /** The quick start's build command's line for the page's server. */
  built: string;
  /** The page's client as written, pinned to 2026-07-28 (what a 2026-07-28 client sends). */
  pinnedTo2026(client: string): string;
}

const SETUPS = [
  { name: "the README's quick start (TypeScript 5.9)", setup: readmeQuickStart },
  { name: "docs/typescript-7.md's quick start (TypeScript 7)", setup: typescript7QuickStart },
];

/**
 * A docs page followed as a user follows it: a project set up as the README's quick start
 * (TypeScript 5.9 as it pins it, and TypeScript 7 as docs/typescript-7.md installs it), the
 * page's src/server.ts in place of the quick start's, built with the quick start's build
 * command, and the page's client script run as written (the official v2 client, which speaks
 * 2025-11-25 by default) and pinned to 2026-07-28: both print exactly what the page shows.
 */
export function describePageRecipe({ markers, built, pinnedTo2026 }: PageRecipe): void {
  describe.each(SETUPS)("$name", ({ setup }) => {
    let folder: string;
    let project: string;
    beforeAll(() => {
      folder = installedAsReadme();
      project = setup(folder);
      fs.writeFileSync(path.join(project, "src", "server.ts"), documentedBlock(markers.server));
      runAsWritten(documentedBlock("quickstart:client-install"), project);
    }, 600_000);
    afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

    test("the quick start's build command builds the page's server with no diagnostic", () => {
      const build = documentedBlock("quickstart:try").split("\n")[0];
      expect(build).toBe("npx typemcp build");
      expect(shell(build, project)).toEqual({ status: 0, stdout: `${built}\n`, stderr: "" });
    });

    test("the page's client prints what the page shows, on 2025-11-25 (as written) and on 2026-07-28", () => {
      const client = documentedBlock(markers.client);
      const expected = documentedBlock(markers.output);
      fs.writeFileSync(path.join(project, "client.mjs"), client);
      expect(runAsWritten("node client.mjs", project)).toBe(expected);
      fs.writeFileSync(path.join(project, "client-2026.mjs"), pinnedTo2026(client));
      expect(runAsWritten("node client-2026.mjs", project)).toBe(expected);
    });
  });
}
