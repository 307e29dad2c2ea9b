/**
 * Preload (node --require / mocha --require) that takes the network away: every outgoing TCP
 * connection this process attempts — fetch/undici, http, raw sockets, to any host including
 * 127.0.0.1 — fails at once with ECONNREFUSED and is counted. Listening servers are not
 * affected. `npm run demo` replays the examples under it to prove a replay needs no network;
 * the examples' report (examples/support/report.ts) records the count as `blockedConnections`.
 */
"use strict";
const net = require("node:net");

const KEY = Symbol.for("langchain-vcr.examples.blockedConnections");
const blocked = (globalThis[KEY] = { count: 0, targets: [] });

net.Socket.prototype.connect = function connect(...args) {
  // net.connect() hands Socket#connect its normalized arguments: [options, callback]
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const opts = first && typeof first === "object" ? first : { port: first, host: args[1] };
  const target = opts.path ? String(opts.path) : `${opts.host ?? "localhost"}:${opts.port}`;
  blocked.count += 1;
  blocked.targets.push(target);
  const error = Object.assign(new Error(`connect ECONNREFUSED ${target} (the network is disabled for this run)`), {
    code: "ECONNREFUSED",
  });
  process.nextTick(() => this.destroy(error));
  return this;
};
