export * from "../../examples/provider/server";
import { startFakeProvider, type FakeProvider, type FakeProviderOptions } from "../../examples/provider/server";

/** Runs `fn` with a loopback fake started for it, and closes the fake after it whatever happens. */
export async function withFakeProvider<T>(options: FakeProviderOptions, fn: (fake: FakeProvider) => Promise<T>): Promise<T> {
  const fake = await startFakeProvider(options);
  try {
    return await fn(fake);
  } finally {
    await fake.close();
  }
}
