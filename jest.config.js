// `npm test`: the fast tier (test/tiers.js), run from the TypeScript sources with no build.
// `npm run test:e2e` runs the other tier, on the built package (jest.e2e.config.js).
const { fast, testMatch } = require("./test/tiers");
const { JOSE_TRANSFORM } = require("./test/support/jose-transform");

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  // The sources too, so that `npm run test:watch` re-runs the suites that import an edited module.
  roots: ["<rootDir>/test", "<rootDir>/contract", "<rootDir>/runtime", "<rootDir>/transformer"],
  testMatch: testMatch(fast),
  // Transpiled one file at a time (test/tsconfig.json has isolatedModules): `npm run typecheck` checks the types.
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "<rootDir>/test/tsconfig.json" }], ...JOSE_TRANSFORM },
  transformIgnorePatterns: ["/node_modules/(?!jose/)"],
  // The package's entries, as its sources: an edit is tested without a build.
  moduleNameMapper: {
    "^typemcp$": "<rootDir>/runtime/index.ts",
    "^typemcp/transformer$": "<rootDir>/transformer/index.ts",
    "^typemcp/language-service$": "<rootDir>/transformer/language-service.ts",
  },
  globalSetup: "<rootDir>/test/global-setup.ts",
  testTimeout: 120000,
};
