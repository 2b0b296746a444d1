/**
 * docs/asking.md's server followed as a user follows it (test/support/page-recipe.ts): its client
 * answers the questions over the connection on 2025-11-25 (as written) and the
 * `input_required` answers on 2026-07-28 (pinned), and prints exactly what the page shows.
 */
import { describePageRecipe } from "./support/page-recipe";

describePageRecipe({
  markers: { server: "asking:src/server.ts", client: "asking:client.mjs", output: "asking:client-output" },
  built: "2 tool registrations built: no errors, 0 warnings.",
  pinnedTo2026(client) {
    const written = "{ capabilities: { elicitation: {}, sampling: {} } },";
    expect(client).toContain(written);
    return client.replace(
      written,
      '{ capabilities: { elicitation: {}, sampling: {} }, versionNegotiation: { mode: { pin: "2026-07-28" } } },',
    );
  },
});
