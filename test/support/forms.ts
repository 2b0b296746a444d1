/**
 * The form the conformance suite's SEP-1330 type makes: the five enum shapes (untitled and
 * titled single select, the legacy enumNames, untitled and titled multi select). The build
 * writes it from fixtures/forms' EnumForm and from examples/everything's Choices alike.
 */
export const SEP_1330_FORM = {
  type: "object",
  properties: {
    untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
    titledSingle: {
      type: "string",
      oneOf: [
        { const: "value1", title: "First Option" },
        { const: "value2", title: "Second Option" },
        { const: "value3", title: "Third Option" },
      ],
    },
    legacyEnum: {
      type: "string",
      enum: ["opt1", "opt2", "opt3"],
      enumNames: ["Option One", "Option Two", "Option Three"],
    },
    untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
    titledMulti: {
      type: "array",
      items: {
        anyOf: [
          { const: "value1", title: "First Choice" },
          { const: "value2", title: "Second Choice" },
          { const: "value3", title: "Third Choice" },
        ],
      },
    },
  },
  required: ["untitledSingle", "titledSingle", "legacyEnum", "untitledMulti", "titledMulti"],
};
