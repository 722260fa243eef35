// What the server refuses before doing any work: a body larger than its address allows (answered
// 413 without being read whole, with or without a declared length), and a start with a bad
// setting (one line saying what is wrong, exit 1). And the data folder is private: after a start
// and a stored message, every folder under DATA_DIR is 0700 and every file 0600.
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "./support";
import { bigPost } from "../../scripts/lib/big-post";
import { freshSecrets, serverEnv, startServer } from "../../scripts/lib/server-process";
import type { ServerConfig } from "../../scripts/lib/server-process";

const MB = 1024 * 1024;
/** The servers this file starts itself (E2E_LIMITS_PORT lets two runs share a machine). */
const ownPort = Number(process.env.E2E_LIMITS_PORT ?? 4221);
const scratch = path.resolve(".tmp/e2e-limits");

/** Runs `node server.js` with `env` until it exits (at most 30 s). */
function runServer(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["server.js"], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function config(name: string, port = ownPort): ServerConfig {
  const dataDir = path.join(scratch, name);
  return {
    port,
    dataDir,
    databaseUrl: "",
    secrets: freshSecrets(),
    logFile: path.join(scratch, `${name}.log`),
  };
}

test.beforeAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
});

test.describe("bodies larger than a form", () => {
  for (const declareLength of [true, false]) {
    const how = declareLength ? "with its length declared" : "sent chunked, without a length";
    test(`a 50 MB POST ${how} is answered 413 before it is all sent, every time`, async ({ baseURL }) => {
      // Thirty rounds: an answer lost to a reset showed in one post in ten to one in three hundred.
      for (const page of Array.from({ length: 30 }, () => ["/contact", "/login", "/signup"]).flat()) {
        // The client sends at most 8 MB and waits: the answer comes without the rest of the body.
        const answer = await bigPost(`${baseURL}${page}`, 50 * MB, declareLength, 8 * MB);
        expect([page, answer.status, answer.body]).toEqual([page, 413, "The form is too large."]);
        expect(answer.headers.connection).toBe("close");
        expect(answer.headers["content-security-policy"]).toBeTruthy();
      }
    });
  }

  test("a form just under 64 KB is still read, and a normal message is sent", async ({
    request,
    baseURL,
  }) => {
    const padded = await request.post("/contact", {
      headers: { origin: baseURL! },
      form: { name: "Mei Chen", email: "mei@example.com", subject: "x".repeat(60 * 1024), description: "" },
    });
    // Read and checked by the form (a field error), not refused for its size.
    expect(padded.status()).toBe(400);

    const sent = await request.post("/contact", {
      headers: { origin: baseURL! },
      form: {
        name: "Mei Chen",
        email: "mei@example.com",
        phone: "",
        subject: "Form 1040-NR for 2025",
        description: "I was on F-1 OPT for all of 2025 and need help with my 1040-NR.",
      },
    });
    expect(sent.status()).toBe(200);
    expect(await sent.text()).toContain("Message Sent!");
  });
});

test.describe("the data folder", () => {
  test("after a start and a stored message, every folder is 0700 and every file 0600", async () => {
    const own = config("private-data");
    // Left by an older version: readable by everyone.
    mkdirSync(path.join(own.dataDir, "outbox"), { recursive: true });
    writeFileSync(path.join(own.dataDir, "outbox", "old.eml"), "Subject: old\r\n\r\nold");
    chmodSync(path.join(own.dataDir, "outbox", "old.eml"), 0o666);
    chmodSync(path.join(own.dataDir, "outbox"), 0o755);
    chmodSync(own.dataDir, 0o755);

    const server = await startServer(own);
    try {
      const response = await fetch(`${server.url}/contact`, {
        method: "POST",
        headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          name: "Mei Chen",
          email: "mei@example.com",
          phone: "",
          subject: "Form 1040-NR for 2025",
          description: "I was on F-1 OPT for all of 2025 and need help with my 1040-NR.",
        }),
      });
      expect(response.status).toBe(200);
      // The staff e-mail is written to the outbox after the answer.
      await expect.poll(() => readdirSync(path.join(own.dataDir, "outbox")).length).toBeGreaterThan(1);

      const wrong: string[] = [];
      let files = 0;
      for (const entry of ["", ...readdirSync(own.dataDir, { recursive: true, encoding: "utf8" })]) {
        const full = path.join(own.dataDir, entry);
        const stat = statSync(full);
        const expected = stat.isDirectory() ? 0o700 : 0o600;
        if (!stat.isDirectory()) files += 1;
        if ((stat.mode & 0o777) !== expected)
          wrong.push(`${entry || "."}: ${(stat.mode & 0o777).toString(8)}`);
      }
      expect(files).toBeGreaterThan(100); // the embedded database's files among them
      expect(wrong).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});

test.describe("a start that cannot succeed says why in one line", () => {
  const cases: Array<{
    what: string;
    env: (own: ServerConfig) => NodeJS.ProcessEnv;
    line: (own: ServerConfig) => string;
  }> = [
    {
      what: "an invalid TRUST_PROXY",
      env: (own) => ({ ...serverEnv(own), TRUST_PROXY: "proxy.example.com" }),
      line: () =>
        'Invalid configuration: TRUST_PROXY: must be true, false, a number of hops, or comma-separated addresses, CIDR ranges and "loopback", "linklocal" or "uniquelocal".',
    },
    {
      what: "a database that cannot be reached",
      env: (own) => ({
        ...serverEnv(own),
        DATABASE_URL: "postgres://taxbridge:s3cret-word@127.0.0.1:1/taxbridge",
      }),
      line: () => "Cannot reach the database at 127.0.0.1:1 (ECONNREFUSED).",
    },
    {
      what: "a DATA_DIR that is a file",
      env: (own) => {
        writeFileSync(own.dataDir, "");
        return serverEnv(own);
      },
      line: (own) => `DATA_DIR (${own.dataDir}) is not a folder.`,
    },
    {
      // The superuser may write anywhere permissions allow; /proc takes no new entries from anyone.
      what: "a DATA_DIR that cannot be written",
      env: (own) => ({ ...serverEnv(own), DATA_DIR: "/proc/taxbridge-data" }),
      line: () => "DATA_DIR (/proc/taxbridge-data) is not writable.",
    },
  ];
  for (const [i, c] of cases.entries()) {
    test(c.what, async () => {
      const own = config(`bad-start-${i}`, ownPort + 1 + i);
      const result = await runServer(c.env(own));
      expect(result.stderr).toBe(`${c.line(own)}\n`);
      expect(result.stdout).toBe("");
      expect(result.code).toBe(1);
      expect(result.stderr + result.stdout).not.toContain("s3cret-word");
    });
  }
});
