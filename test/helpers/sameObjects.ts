/**
 * How test runners compare and print a value, for tests that a replayed answer is the live one
 * object for object: vitest's `toEqual` and `toStrictEqual` (the `equals` of @vitest/expect
 * with the testers each matcher passes; jest's `expect` runs the same algorithm), the text
 * `toMatchSnapshot` writes, and chai's deep equality.
 */
import { expect } from "chai";
import { arrayBufferEquality, equals, iterableEquality, sparseArrayEquality, typeEquality } from "@vitest/expect";
import { format } from "@vitest/pretty-format";
import { getSerializers } from "@vitest/snapshot";

/** vitest's `expect(a).toEqual(b)`: undefined members count as absent. */
export const toEqual = (a: unknown, b: unknown): boolean => equals(a, b, [iterableEquality]);

/** vitest's `expect(a).toStrictEqual(b)`: undefined members, classes and sparseness count. */
export const toStrictEqual = (a: unknown, b: unknown): boolean =>
  equals(a, b, [iterableEquality, typeEquality, sparseArrayEquality, arrayBufferEquality], true);

/** What vitest's `toMatchSnapshot` writes for `value` (its default snapshotFormat). */
export const snapshotOf = (value: unknown): string => format(value, { plugins: getSerializers(), printBasicPrototype: false, escapeString: false, indent: 2 });

/** Asserts that `replayed` is `live` for each of them; `what` names the value in a failure. The snapshot goes first: its failure shows the difference. */
export function expectSameObjects(replayed: unknown, live: unknown, what: string): void {
  expect(snapshotOf(replayed), `${what}: the snapshot text`).to.equal(snapshotOf(live));
  expect(toEqual(replayed, live), `${what}: toEqual`).to.equal(true);
  expect(toStrictEqual(replayed, live), `${what}: toStrictEqual`).to.equal(true);
  expect(replayed, `${what}: chai deep.equal`).to.deep.equal(live);
}

/** A stream's chunks, and what they add up to. */
export interface Streamed {
  chunks: unknown[];
  aggregate: unknown;
}

/** `expectSameObjects` for each chunk of a stream and for their concatenation. */
export function expectSameStream(replayed: Streamed, live: Streamed, what: string): void {
  expect(replayed.chunks, `${what}: the chunks`).to.have.length(live.chunks.length);
  for (const [k, chunk] of replayed.chunks.entries()) expectSameObjects(chunk, live.chunks[k], `${what}, chunk ${k}`);
  expectSameObjects(replayed.aggregate, live.aggregate, `${what}, the aggregate`);
}
