/**
 * Recording a fixture that another process wrote first, between this process's lookup and its
 * write: nothing is written here, so nothing may be reported as recorded.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { Vcr } from "../../src/index";
import { chatRequest } from "../../src/canonical/chat";
import { requestHash } from "../../src/canonical/json";
import { identity } from "../../src/canonical/normalize";
import { onScopeEvent } from "../../src/scope";
import { formatFixture } from "../../src/store/format";
import { SCHEMA_VERSION } from "../../src/store/fixture";
import type { FakeProvider } from "../helpers/fakeProvider";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { openai } from "../helpers/models";
import { stderrOf } from "../helpers/notes";
import { fixtureFiles } from "../helpers/tmp";

describe("recording: the fixture was written by another process first (created: false)", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  it("is not counted as recorded, emits no recorded event, warns about no size, notes no near miss, and keeps the other file", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay", sizeWarningBytes: 1 });
    await stderrOf(() => openai(fake, vcr.cache).invoke("race question one")); // a near neighbour for the near-miss scan
    const request = chatRequest(openai(fake, vcr.cache), [new HumanMessage("race question two")], {}, identity);
    const hash = requestHash("chat", request);
    const file = path.join(dir, `${hash}.json`);
    const theirs = formatFixture({
      schemaVersion: SCHEMA_VERSION,
      kind: "chat",
      hash,
      recordedAt: "2026-01-01T00:00:00.000Z",
      request,
      response: { generations: [] },
    });
    // the other process writes its fixture while this one's request is on the wire
    const racing = openai(fake, vcr.cache, {
      configuration: { fetch: (url: string, init: RequestInit) => (fs.writeFileSync(file, theirs), fetch(url, init)) },
    });
    const events: string[] = [];
    const stop = onScopeEvent((e) =>
      events.push(
        e.type === "used" || e.type === "damaged" ? `${e.type} ${path.basename(e.file)}` : e.type === "undone" ? `undone ${e.count}` : `${e.type} ${e.kind}`,
      ),
    );
    let answer: unknown;
    const stderr = await stderrOf(async () => (answer = (await racing.invoke("race question two")).content)).finally(stop);

    expect(answer).to.equal("echo: race question two");
    expect(fake.count()).to.equal(2);
    expect(fs.readFileSync(file, "utf8")).to.equal(theirs);
    expect(fixtureFiles(dir)).to.have.length(2);
    expect(vcr.stats()).to.deep.equal({ replayed: 0, recorded: 1, bypassed: 1, missed: 0 });
    expect(events).to.deep.equal(["bypassed chat", `used ${hash}.json`]);
    expect(stderr).to.equal("");
  });
});
