import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// No module of app/ reaches itself through its imports, type-only imports included: ESLint's
// import-x/no-cycle checks the imports that run (docs/decisions/0025) and skips `import type`,
// so a cycle of types alone is found here. Every cycle is named by its modules.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const app = path.join(root, "app");
const EXTENSIONS = [".ts", ".tsx", ".js", ".jsx"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name.startsWith(".") ? [] : sourceFiles(full);
    return EXTENSIONS.includes(path.extname(name)) && !name.endsWith(".d.ts") ? [full] : [];
  });
}

function resolveFile(base: string): string | null {
  for (const candidate of [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => path.join(base, `index${e}`))])
    if (candidate.startsWith(app) && statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
  return null;
}

/** The files of app/ a module imports or re-exports (`~/` or relative), with `import type` too. */
export function importsOf(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']/gms)].map((m) => m[1]!);
  return specifiers.flatMap((s) => {
    const base = s.startsWith("~/") ? path.join(app, s.slice(2)) : s.startsWith(".") ? path.resolve(path.dirname(file), s) : null;
    const resolved = base && resolveFile(base);
    return resolved ? [resolved] : [];
  });
}

/** The import cycles of a graph: each strongly connected set of more than one module, or one importing itself. */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const set: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        set.push(w);
      } while (w !== v);
      if (set.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(set.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe("the import graph of app/", () => {
  it("finds a cycle of type-only imports, and none where the imports go one way", () => {
    const a = path.join(app, "a.ts");
    const b = path.join(app, "b.ts");
    expect(cyclesOf(new Map([[a, [b]], [b, [a]]]))).toEqual([[a, b]]);
    expect(cyclesOf(new Map([[a, [b]], [b, []]]))).toEqual([]);
    expect(cyclesOf(new Map([[a, [a]]]))).toEqual([[a]]);
  });

  it("reads imports, type-only imports and re-exports, by alias and relative path", () => {
    const file = path.join(app, "server/db/schema.ts");
    const found = importsOf(
      file,
      `import type { VisaStatus } from "../../domain/auth";\nimport {\n  user,\n} from "./auth-schema";\nexport * from "./auth-schema";\nimport { z } from "zod";\nimport type { AuditAction } from "~/domain/audit";\n`,
    ).map((f) => path.relative(app, f));
    expect(found).toEqual(["domain/auth.ts", "server/db/auth-schema.ts", "server/db/auth-schema.ts", "domain/audit.ts"]);
  });

  it("has no cycle", () => {
    const graph = new Map(sourceFiles(app).map((file) => [file, importsOf(file, readFileSync(file, "utf8"))]));
    expect(graph.size).toBeGreaterThan(100);
    expect(cyclesOf(graph).map((set) => set.map((f) => path.relative(app, f)))).toEqual([]);
  });
});
