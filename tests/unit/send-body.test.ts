// How an answer's body goes out (server/request-handler.ts, sendBody): read as the visitor takes
// it, nothing kept once sent, stopped when the visitor leaves, cut short when its source fails.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { sendBody } from "../../server/request-handler";

const KB = 1024;
const MB = 1024 * KB;

type Source = {
  body: ReadableStream<Uint8Array>;
  /** Chunks handed out so far. */
  pulled: () => number;
  /** Reads of the body begun after it was cancelled. */
  readsAfterCancel: () => number;
  /** Settles when the body is cancelled. */
  cancelled: Promise<void>;
};

/** A body of `chunks` chunks of `size` bytes, each made when it is read; fails at `failAt`. */
function source(chunks: number, size: number, options: { failAt?: number; onPull?: () => void } = {}): Source {
  let pulled = 0;
  let isCancelled = false;
  let readsAfterCancel = 0;
  let cancel = () => undefined as void;
  const cancelled = new Promise<void>((resolve) => (cancel = resolve));
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (isCancelled) readsAfterCancel += 1;
      options.onPull?.();
      await new Promise((resolve) => setImmediate(resolve));
      if (pulled === options.failAt) return controller.error(new Error("the source failed"));
      if (pulled === chunks) return controller.close();
      pulled += 1;
      controller.enqueue(new Uint8Array(size).fill(pulled % 256));
    },
    cancel() {
      isCancelled = true;
      cancel();
    },
  });
  return { body, pulled: () => pulled, readsAfterCancel: () => readsAfterCancel, cancelled };
}

let server: http.Server | null = null;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = null;
});

/** A server that answers with `body` through sendBody; `sent` settles with how sendBody ended. */
async function serve(
  body: ReadableStream<Uint8Array>,
  onResponse: (res: http.ServerResponse & { flush?: () => void }) => void = () => undefined,
): Promise<{ url: string; sent: Promise<"done" | Error> }> {
  let settle: (outcome: "done" | Error) => void = () => undefined;
  const sent = new Promise<"done" | Error>((resolve) => (settle = resolve));
  server = http.createServer((_req, res) => {
    onResponse(res);
    res.writeHead(200, { "content-type": "text/csv" });
    sendBody(body, res).then(
      () => settle("done"),
      (error: unknown) => settle(error as Error),
    );
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/`, sent };
}

describe("sendBody", () => {
  it("sends a large body whole without keeping what it has sent", async () => {
    // 256 MB in 256 KB chunks. Holding what was sent (as a race with a promise that settles only
    // at the end did: 290 MB) makes the chunks' memory grow all along; sent and let go, they are
    // freed at the collections that their memory brings on (under 50 MB here).
    const baseline = process.memoryUsage().arrayBuffers;
    let most = 0;
    const { body } = source(1024, 256 * KB, {
      onPull: () => (most = Math.max(most, process.memoryUsage().arrayBuffers - baseline)),
    });
    const { url, sent } = await serve(body);
    const received = await new Promise<number>((resolve, reject) => {
      http.get(url, (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => (bytes += chunk.length));
        res.on("end", () => resolve(bytes));
        res.on("error", reject);
      });
    });
    expect(received).toBe(1024 * 256 * KB);
    expect(await sent).toBe("done");
    expect(most).toBeLessThan(96 * MB);
  });

  it("stops reading the body and cancels it when the visitor leaves", async () => {
    const src = source(1000, 64 * KB);
    const { url, sent } = await serve(src.body);
    await new Promise<void>((resolve) => {
      const request = http.get(url, (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > MB) {
            request.destroy();
            resolve();
          }
        });
        res.on("error", () => undefined);
      });
      request.on("error", () => undefined);
    });
    await src.cancelled;
    expect(await sent).toBe("done");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(src.readsAfterCancel()).toBe(0);
    expect(src.pulled()).toBeLessThan(1000);
  });

  it("cuts the answer short when its source fails, and says why", async () => {
    const { body } = source(100, 64 * KB, { failAt: 3 });
    const { url, sent } = await serve(body);
    const outcome = await new Promise<string>((resolve) => {
      http
        .get(url, (res) => {
          res.on("data", () => undefined);
          res.on("end", () => resolve("complete"));
          res.on("error", () => resolve("cut short"));
          res.on("aborted", () => resolve("cut short"));
        })
        .on("error", () => resolve("cut short"));
    });
    expect(outcome).toBe("cut short");
    expect(await sent).toEqual(new Error("the source failed"));
  });

  it("flushes compressed output after each chunk", async () => {
    const { body } = source(5, KB);
    let flushes = 0;
    const { url, sent } = await serve(body, (res) => (res.flush = () => (flushes += 1)));
    await new Promise<void>((resolve) => http.get(url, (res) => res.resume().on("end", resolve)));
    expect(await sent).toBe("done");
    expect(flushes).toBe(5);
  });
});
