// `npm start`: builds when the build is missing or older than the sources, then serves it.
import "./lib/private-files.js";
import { buildIfStale } from "./build-if-stale.js";

buildIfStale();
process.env.NODE_ENV ??= "production";
await import("../server.js");
