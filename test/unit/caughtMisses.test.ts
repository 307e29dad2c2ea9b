/**
 * The note for a test that timed out after a request of it had no fixture (src/runner/caughtMisses.ts): which runner
 * messages are timeouts, and the fake-timers advice only where fake timers faked queueMicrotask when the request was made.
 */
import { expect } from "chai";
import { caughtNote, fakeMicrotasks, noteUnanswered, timedOut } from "../../src/runner/caughtMisses";
import { testScope } from "../../src/scope";

// jest's own fake timers (its dependency): what jest.useFakeTimers() and vitest's vi.useFakeTimers({ toFake: [...] }) install
const FakeTimers = require("@sinonjs/fake-timers") as { withGlobal(g: object): { install(o: object): { uninstall(): void } } };

const unanswered = { kind: "chat", describe: 'ChatOpenAI (model "gpt-4o-mini")', file: "/p/cassettes/a.json", mode: "replay_only", how: "missed" as const };

describe("a test that timed out after a request of it had no fixture", () => {
  it("each runner's own timeout message is a timeout; an HTTP client's 'timeout of 5000ms exceeded' is not (review)", () => {
    for (const message of [
      'thrown: "Exceeded timeout of 5000 ms for a test.\nAdd a timeout value to this test to increase the timeout"', // jest
      "Error: Test timed out in 1500ms.", // vitest
      'Error: Timeout of 2000ms exceeded. For async tests and hooks, ensure "done()" is called', // mocha
      "test timed out after 1500ms", // node:test
    ])
      expect(timedOut({ message }), message).to.equal(true);
    for (const message of ["AxiosError: timeout of 5000ms exceeded", "Request timed out.", "expected an answer, got Sorry"])
      expect(timedOut({ message }), message).to.equal(false);
  });

  it("the fake-timers advice only when fake timers faked queueMicrotask as the request was made (recheck N3), else what may have kept the error from the test", () => {
    const real = testScope("with real timers");
    noteUnanswered(real, unanswered);
    const plain = caughtNote(real, "timedOut")!;
    expect(plain).to.include(
      'test "with real timers" timed out, and 1 request(s) in it had no fixture: the error may never have reached the test (code that waits after an error',
    );
    expect(plain).to.not.include("queueMicrotask");

    const clock = FakeTimers.withGlobal(globalThis).install({ toFake: ["queueMicrotask"] });
    const faked = testScope("under fake timers");
    try {
      expect(fakeMicrotasks()).to.equal(true);
      noteUnanswered(faked, unanswered);
    } finally {
      clock.uninstall();
    }
    expect(fakeMicrotasks()).to.equal(false);
    expect(caughtNote(faked, "timedOut"))
      .to.include("Fake timers faked queueMicrotask when it was made")
      .and.include('jest.useFakeTimers({ doNotFake: ["queueMicrotask"] }), or fakeTimers: { doNotFake: ["queueMicrotask"] } in jest.config');
  });
});
