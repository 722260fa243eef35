import { randomUUID } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// ESLint's import-x/no-cycle is how the repo keeps its modules free of import cycles
// (docs/decisions/0025). It reported nothing for years: without the TypeScript settings the
// plugin read no .ts file and found no cycle. Two files that import each other must fail.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// A folder of its own per run, so that runs side by side never share files.
const folderName = `_cycle-check-${process.pid}-${randomUUID().slice(0, 8)}`;
const folder = path.join(root, "app/server", folderName);

async function cycleErrors(files: Record<string, string>): Promise<Record<string, string[]>> {
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(folder, name), text);
  const eslint = new ESLint({ cwd: root });
  const results = await eslint.lintFiles(Object.keys(files).map((name) => path.join(folder, name)));
  return Object.fromEntries(
    results.map((r) => [path.basename(r.filePath), r.messages.filter((m) => m.ruleId === "import-x/no-cycle").map((m) => m.message)]),
  );
}

describe("import-x/no-cycle", () => {
  beforeAll(async () => {
    await mkdir(folder);
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("reports two files that import each other through the ~/ alias", async () => {
    const errors = await cycleErrors({
      "alias-a.ts": `import { b } from "~/server/${folderName}/alias-b";\nexport const a = (): number => b() + 1;\n`,
      "alias-b.ts": `import { a } from "~/server/${folderName}/alias-a";\nexport const b = (): number => a() - 1;\n`,
    });
    expect(errors).toEqual({ "alias-a.ts": ["Dependency cycle detected"], "alias-b.ts": ["Dependency cycle detected"] });
  }, 120_000);

  it("reports two files that import each other by relative paths", async () => {
    const errors = await cycleErrors({
      "relative-a.ts": `import { b } from "./relative-b";\nexport const a = (): number => b() + 1;\n`,
      "relative-b.ts": `import { a } from "./relative-a";\nexport const b = (): number => a() - 1;\n`,
    });
    expect(errors).toEqual({ "relative-a.ts": ["Dependency cycle detected"], "relative-b.ts": ["Dependency cycle detected"] });
  }, 120_000);

  it("reports nothing when the imports go one way", async () => {
    const errors = await cycleErrors({
      "one-way-a.ts": `import { b } from "./one-way-b";\nexport const a = (): number => b() + 1;\n`,
      "one-way-b.ts": `export const b = (): number => 1;\n`,
    });
    expect(errors).toEqual({ "one-way-a.ts": [], "one-way-b.ts": [] });
  }, 120_000);
});
