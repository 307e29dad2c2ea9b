/**
 * The embeddings scan of vcr.install() (src/install/embeddings.ts) looks at every module's
 * exports: values it cannot read are skipped, never a failed require() of the user's module.
 */
import { expect } from "chai";
import { scanExports } from "../../src/install/embeddings";

const refusing = (trap: keyof ProxyHandler<object>) =>
  new Proxy(
    {},
    {
      [trap]() {
        throw new Error(`${trap} refused`);
      },
    },
  );

describe("install: the embeddings scan of a module's exports", () => {
  for (const trap of ["ownKeys", "getOwnPropertyDescriptor", "getPrototypeOf", "get"] as const) {
    it(`exports that are a Proxy whose ${trap} trap throws: skipped, no error`, () => {
      expect(() => scanExports(refusing(trap))).not.to.throw();
    });
    it(`an exported value that is a Proxy whose ${trap} trap throws: skipped, no error`, () => {
      expect(() =>
        scanExports({
          value: refusing(trap),
          fn: new Proxy(function () {}, {
            [trap]: () => {
              throw new Error("no");
            },
          }),
        }),
      ).not.to.throw();
    });
  }
});
