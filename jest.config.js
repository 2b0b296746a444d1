/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "<rootDir>/test/tsconfig.json" }] },
  // Tests use the built package (npm test builds first), as a user would.
  moduleNameMapper: {
    "^typemcp$": "<rootDir>/dist/runtime/index.js",
    "^typemcp/transformer$": "<rootDir>/dist/transformer/index.js",
  },
  globalSetup: "<rootDir>/test/global-setup.ts",
  testTimeout: 120000,
};
