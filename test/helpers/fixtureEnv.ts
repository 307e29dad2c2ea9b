/** The per-test set-up most integration tests share: a fresh loopback fake and a fresh fixture dir. */
import { startFakeProvider, type FakeProvider } from "./fakeProvider";
import { removeTmpDirs, tmpDir } from "./tmp";

/** Registers beforeEach/afterEach hooks; `use` receives the fake and the directory of each test. */
export function useFakeAndDir(use: (fake: FakeProvider, dir: string) => void, dirPrefix?: string, options?: Parameters<typeof startFakeProvider>[0]): void {
  let fake: FakeProvider | undefined;
  beforeEach(async () => {
    fake = await startFakeProvider(options);
    use(fake, tmpDir(dirPrefix));
  });
  afterEach(async () => {
    await fake?.close();
    removeTmpDirs();
  });
}
