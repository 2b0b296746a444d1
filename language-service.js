// tsserver loads a tsconfig's plugins ({ "name": "typemcp/language-service" }) with its own
// module lookup, which ignores package.json "exports": this file is what it finds.
module.exports = require("./dist/transformer/language-service.js");
