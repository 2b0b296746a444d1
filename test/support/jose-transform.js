// jose (JWTs, for `auth`'s jwt() and the tests that sign tokens) is an ES module only, and jest on
// Node 20 loads modules as CommonJS: its files are transpiled to CommonJS as they are loaded,
// as the tests are. Both jest configs use this.
module.exports = {
  JOSE_TRANSFORM: {
    "/node_modules/jose/.+\\.js$": [
      "ts-jest",
      { tsconfig: { allowJs: true, module: "commonjs", target: "ES2022", isolatedModules: true } },
    ],
  },
};
