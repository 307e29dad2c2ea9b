// Map.groupBy and Object.groupBy (Node 21+), for running vitest 5 (which declares Node
// >= 22.12) on an older Node in test/compat/vitest-latest.mjs: its reporter groups failed
// tests' errors with Map.groupBy. Nothing else of vitest 5 needed a newer Node in that test.
"use strict";
function groupBy(items, key) {
  const groups = new Map();
  let i = 0;
  for (const item of items) {
    const k = key(item, i++);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
if (typeof Map.groupBy !== "function") {
  Object.defineProperty(Map, "groupBy", { value: groupBy, writable: true, configurable: true });
}
if (typeof Object.groupBy !== "function") {
  Object.defineProperty(Object, "groupBy", {
    value: (items, key) => Object.assign(Object.create(null), Object.fromEntries(groupBy(items, key))),
    writable: true,
    configurable: true,
  });
}
