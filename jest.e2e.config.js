// `npm run test:e2e`: the second tier (test/tiers.js), on the built package: `npm run test:e2e`
// builds dist/ first. Its suites run the package as a user does: in its own processes, packed
// and installed, under the CLI, the conformance suite and the benchmark harnesses.
const { e2e, testMatch } = require("./test/tiers");
const { JOSE_TRANSFORM } = require("./test/support/jose-transform");

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: testMatch(e2e),
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "<rootDir>/test/tsconfig.json" }], ...JOSE_TRANSFORM },
  transformIgnorePatterns: ["/node_modules/(?!jose/)"],
  // What the suites import of typemcp in process is the built package, as the processes they start use.
  moduleNameMapper: {
    "^typemcp$": "<rootDir>/dist/runtime/index.js",
    "^typemcp/transformer$": "<rootDir>/dist/transformer/index.js",
  },
  globalSetup: "<rootDir>/test/global-setup.ts",
  testTimeout: 120000,
};
