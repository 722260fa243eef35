/** CPU seconds (user and system) used by this process's finished children (Linux; 0 elsewhere). */
import { readFileSync } from "node:fs";

export function childrenCpuSeconds() {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    // cutime and cstime (fields 16 and 17 of proc(5)), in clock ticks of 1/100 s.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}
