/**
 * docs/prompts-and-resources.md's server followed as a user follows it
 * (test/support/page-recipe.ts): built with the quick start's build command on TypeScript 5.9
 * and 7, its client run as written (2025-11-25) and pinned to 2026-07-28, printing exactly what
 * the page shows.
 */
import { describePageRecipe } from "./support/page-recipe";

describePageRecipe({
  markers: { server: "server:src/server.ts", client: "server:client.mjs", output: "server:client-output" },
  built: "3 registrations (1 tool, 1 prompt, 1 resource) built: no errors, 0 warnings.",
  pinnedTo2026(client) {
    const written = 'new Client({ name: "notes-client", version: "1.0.0" })';
    expect(client).toContain(written);
    return client.replace(
      written,
      'new Client({ name: "notes-client", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } })',
    );
  },
});
