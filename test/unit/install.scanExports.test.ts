/**
 * The embeddings scan of vcr.install() (src/install/embeddings.ts) looks at every module's
 * exports: values it cannot read are skipped, never a failed require() of the user's module.
 */
import { expect } from "chai";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { noteEmbeddingsClass, scanExports } from "../../src/install/embeddings";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

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

  it("a class extending a noted copy of Embeddings gets its own methods wrapped; one outside it does not", () => {
    class Base {}
    noteEmbeddingsClass(Base);
    class Mine extends Base {
      embedQuery() {
        return Promise.resolve([1]);
      }
    }
    class Other {
      embedQuery() {
        return Promise.resolve([1]);
      }
    }
    const [mine, other] = [Mine.prototype.embedQuery, Other.prototype.embedQuery];
    scanExports({ Mine, Other });
    expect(Mine.prototype.embedQuery).not.to.equal(mine);
    expect(Other.prototype.embedQuery).to.equal(other);
  });

  it("a copy of core that is no longer loaded is not kept alive by having been noted (a jest registry reset loads a new one each time)", async () => {
    const ref = ((): WeakRef<object> => {
      class Base {}
      noteEmbeddingsClass(Base);
      return new WeakRef(Base.prototype);
    })();
    await new Promise((resolve) => setImmediate(resolve)); // a WeakRef holds its target until the current job ends
    gc();
    expect(ref.deref()).to.equal(undefined);
  });
});
