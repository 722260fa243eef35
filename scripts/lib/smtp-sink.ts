// A mail server on loopback for the season's start benchmark (scripts/lib/season-bench.ts): plain
// SMTP, just enough of it for nodemailer (EHLO/HELO, MAIL FROM, RCPT TO, DATA, RSET, NOOP, QUIT;
// no STARTTLS offered, so none is tried; no sign-in), which accepts every message and keeps of
// each only its envelope's recipients, its Subject and the time it was accepted, never its text.
// A message counts once the sink has answered 250 to the end of its DATA: a sender that dies
// after that answer and before it marks its row sent sends it again (the outbox is at least
// once), and the sink sees it twice.
//
// Written on node:net rather than with the smtp-server package the tests use: that one takes
// about 100 ms a message on this machine (a raw exchange takes 4 ms), which would have measured
// the sink instead of the outbox.
import net from "node:net";
import type { AddressInfo } from "node:net";

export type SinkMessage = {
  /** When the sink accepted it (Date.now()). */
  at: number;
  to: string[];
  subject: string;
};

export type SmtpSink = {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  port: number;
  /** Every message accepted so far, in order. */
  messages: SinkMessage[];
  /** Connections opened so far. */
  readonly connections: number;
  close(): Promise<void>;
};

/** A message larger than this is refused (552); the outbox's are a few kilobytes. */
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** The Subject header of a message, unfolded (nodemailer folds a long one over several lines). */
export function subjectOf(message: string): string {
  const end = message.indexOf("\r\n\r\n");
  const headers = end < 0 ? message : message.slice(0, end);
  const match = headers.match(/^Subject: (.*(?:\r\n[ \t].*)*)/im);
  return match?.[1]?.replace(/\r\n[ \t]+/g, " ").trim() ?? "";
}

/** The address of `MAIL FROM:<a>` or `RCPT TO:<b>` (parameters after it ignored), in lower case. */
function addressOf(argument: string): string | null {
  const match = argument.match(/^\s*<([^>]*)>/) ?? argument.match(/^\s*(\S+)/);
  return match ? match[1]!.trim().toLowerCase() : null;
}

/** Starts the sink on `port` (0: any free port) of 127.0.0.1. */
export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  let connections = 0;
  const sockets = new Set<net.Socket>();

  const server = net.createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on("error", () => undefined);
    socket.on("close", () => sockets.delete(socket));

    let input = "";
    let inData = false;
    let data = "";
    let from: string | null = null;
    let to: string[] = [];
    const reply = (line: string) => {
      if (!socket.destroyed) socket.write(`${line}\r\n`);
    };
    const reset = () => {
      from = null;
      to = [];
    };

    /** The message's end in `data` (dot-stuffed, ended by a line holding a single dot), or -1. */
    const endOfData = (): { at: number; length: number } => {
      if (data.startsWith(".\r\n")) return { at: 0, length: 3 };
      const at = data.indexOf("\r\n.\r\n");
      return at < 0 ? { at: -1, length: 0 } : { at: at + 2, length: 3 };
    };

    const command = (line: string) => {
      const verb = line.slice(0, 4).toUpperCase();
      const argument = line.slice(4);
      switch (verb) {
        case "EHLO":
          reset();
          reply("250-sink.localhost");
          reply("250 8BITMIME");
          return;
        case "HELO":
          reset();
          reply("250 sink.localhost");
          return;
        case "MAIL": {
          const address = argument.toUpperCase().startsWith(" FROM:") ? addressOf(argument.slice(6)) : null;
          if (address === null) return reply("501 Syntax: MAIL FROM:<address>");
          from = address;
          to = [];
          return reply("250 2.1.0 OK");
        }
        case "RCPT": {
          if (from === null) return reply("503 5.5.1 MAIL first");
          const address = argument.toUpperCase().startsWith(" TO:") ? addressOf(argument.slice(4)) : null;
          if (!address) return reply("501 Syntax: RCPT TO:<address>");
          to.push(address);
          return reply("250 2.1.5 OK");
        }
        case "DATA":
          if (to.length === 0) return reply("503 5.5.1 RCPT first");
          inData = true;
          data = "";
          return reply("354 End data with <CR><LF>.<CR><LF>");
        case "RSET":
          reset();
          return reply("250 2.0.0 OK");
        case "NOOP":
          return reply("250 2.0.0 OK");
        case "QUIT":
          reply("221 2.0.0 Bye");
          socket.end();
          return;
        default:
          return reply("502 5.5.2 Command not implemented");
      }
    };

    socket.on("data", (chunk: Buffer) => {
      input += chunk.toString("latin1");
      for (;;) {
        if (inData) {
          data += input;
          input = "";
          const end = endOfData();
          if (end.at < 0) {
            if (data.length > MAX_MESSAGE_BYTES) {
              inData = false;
              data = "";
              reset();
              reply("552 5.3.4 Message too big");
              socket.end();
            }
            return;
          }
          const message = data.slice(0, end.at);
          input = data.slice(end.at + end.length);
          data = "";
          inData = false;
          messages.push({ at: Date.now(), to, subject: subjectOf(message) });
          reset();
          reply("250 2.0.0 Queued");
          continue;
        }
        const newline = input.indexOf("\r\n");
        if (newline < 0) return;
        const line = input.slice(0, newline);
        input = input.slice(newline + 2);
        // Read as bytes (the message's end is found byte for byte), the command as UTF-8 text.
        command(Buffer.from(line, "latin1").toString("utf8"));
      }
    });
    reply("220 sink.localhost ESMTP");
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${bound}`,
    port: bound,
    messages,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
