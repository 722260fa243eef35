// `node scripts/lib/timed.js OUT command args...`: runs the command, then writes to OUT how long
// it took and the CPU time of its processes, as JSON ({ seconds, cpu, status }). scripts/test.js
// runs a step beside others through it, where its own count of its children's CPU time would
// mix the steps.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { childrenCpuSeconds } from "./cpu-time.js";

const [out, command, ...args] = process.argv.slice(2);
const started = Date.now();
const result = spawnSync(command, args, { stdio: "inherit" });
const status = result.status ?? 1;
writeFileSync(out, JSON.stringify({ seconds: (Date.now() - started) / 1000, cpu: childrenCpuSeconds(), status }));
process.exit(status);
