/** src/internals/check.ts: what a copy of core missing a whole class the table names is told. */
import { expect } from "chai";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { BaseLLM } from "@langchain/core/language_models/llms";
import { RunnableToolLike } from "@langchain/core/runnables";
import { DynamicStructuredTool, StructuredTool } from "@langchain/core/tools";
import { missingInternal } from "../../src/internals/check";

describe("internals check: a copy of core without a class the table names", () => {
  it("exports no RunnableToolLike at all: the error names the class, not a method of its parent", () => {
    const core = { BaseChatModel, BaseLLM, StructuredTool, DynamicStructuredTool, RunnableToolLike: undefined };
    expect(missingInternal(core)?.message).to.contain("it has no RunnableToolLike class.");
  });

  it("every class there: no error", () => {
    expect(missingInternal({ BaseChatModel, BaseLLM, StructuredTool, DynamicStructuredTool, RunnableToolLike })).to.equal(undefined);
  });
});
