// A refused body's answer reaches a client that keeps sending and reads its answer late. The
// server reads and throws away the rest of the body until the client has stopped (a lingering
// close): closing while the client still sends makes the client's system answer with a reset,
// and a reset throws away the answer the client had received but not yet read.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refuseTooLarge } from "../../server/request-handler";

const REFUSAL = "The form is too large.";
const app = express();
app.post("/contact", (req, res) => refuseTooLarge(req, res, { maxBytes: 1024, refusal: REFUSAL }));
const server = createServer(app);
let port = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/**
 * Sends a chunked POST for `sendingMs` without reading anything (a busy client), then stops
 * sending and reads. What it read, and the socket error it met, if any.
 */
function busyClient(sendingMs: number): Promise<{ answer: string; error: string | null }> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    let error: string | null = null;
    socket.pause();
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
    socket.on("error", (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on("close", () => resolve({ answer, error }));
    socket.write("POST /contact HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\n");
    const chunk = `10000\r\n${"a".repeat(0x10000)}\r\n`;
    const until = Date.now() + sendingMs;
    const pump = () => {
      if (socket.destroyed) return;
      if (Date.now() >= until) {
        socket.resume();
        return;
      }
      if (socket.write(chunk)) setImmediate(pump);
      else socket.once("drain", pump);
    };
    pump();
  });
}

describe("a refused body", () => {
  it("is read until its sender stops, so a client that reads late still gets the 413", { timeout: 30_000 }, async () => {
    const { answer, error } = await busyClient(3_000);
    expect(error).toBeNull();
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain("Connection: close");
    expect(answer.endsWith(`\r\n\r\n${REFUSAL}`)).toBe(true);
  });
});
