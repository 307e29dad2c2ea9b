/**
 * Example: a prompt holding today's date and a customer id. A normalizer turns the date into
 * `<ISO_DATE>` before hashing, so the fixture recorded on one day replays on every later day;
 * a redactor masks the customer id in what is written to disk (request and response), without
 * changing the key, so the same request keeps replaying.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { expect } from "chai";
import { ChatOpenAI } from "@langchain/openai";
import { Vcr, normalizers, type Redactor } from "../src/index"; // in your project: from "langchain-vcr"
import { provider } from "./provider/config";
import { CASSETTES } from "./support/cassettes";

const CUSTOMER_ID = "cus_8f3a2b71c9";

/** Masks every customer id (`cus_…`) in the fixture written to disk. */
const maskCustomerIds: Redactor = (fixture) => JSON.parse(JSON.stringify(fixture).replace(/cus_[A-Za-z0-9]+/g, "cus_<REDACTED>"));

describe("normalizers and redactors: today's date and a customer id", () => {
  // #region options
  const vcr = new Vcr({
    dir: CASSETTES,
    normalizers: [normalizers.isoDate],
    redactors: [maskCustomerIds],
  });
  // #endregion options
  const model = new ChatOpenAI({ ...provider.openai, model: "gpt-4o-mini", temperature: 0, cache: vcr.cache });

  // #region today
  const today = new Date().toISOString().slice(0, 10); // the real date: the fixture replays on any later day

  it("answers a question that mentions today's date and the customer", async () => {
    const answer = await model.invoke(`Today is ${today}. Customer ${CUSTOMER_ID} asks: which of my invoices are overdue?`);
    expect(answer.text).to.match(/overdue/i);
  });
  // #endregion today

  it("keeps the date out of the key and the customer id off disk", () => {
    const files = fs.readdirSync(CASSETTES).filter((f) => f.endsWith(".json"));
    const onDisk = files.map((f) => fs.readFileSync(path.join(CASSETTES, f), "utf8"));
    expect(onDisk.join("\n")).not.to.include(CUSTOMER_ID);
    const fixture = onDisk.map((text) => JSON.parse(text)).find((f) => JSON.stringify(f.request).includes("invoices are overdue"));
    expect(fixture.request.messages[0].content).to.equal("Today is <ISO_DATE>. Customer cus_<REDACTED> asks: which of my invoices are overdue?");
    expect(fixture.redacted).to.equal(true);
  });
});
