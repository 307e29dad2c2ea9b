// Loaded with `node --import`: logs the URL of every ES module the process resolves to
// $LOADED_LOG (a resolve hook, run by Node's loader thread), so a test can list them.
import { register } from "node:module";

register("./hooks.mjs", import.meta.url);
