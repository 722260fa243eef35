// A real SMTP server on loopback for the mail tests: it refuses (421 at the greeting, as a mail
// server that is down for maintenance answers), refuses the recipient for good (550), accepts,
// accepts slowly (each reply `delayMs` late: the greeting, MAIL FROM, RCPT TO, the end of DATA),
// or hangs (takes the connection and never greets, until the test leaves that mode), as the test
// says at any moment, and records every message it accepted (the raw DATA).
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export type SmtpMode = "accept" | "refuse" | "reject-recipient" | "slow" | "hang";

export type ReceivedMail = { from: string; to: string[]; raw: string; subject: string };

export type TestSmtp = {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  port: number;
  /** What the server does from now on. Leaving "hang" answers the connections it held with 421. */
  mode: SmtpMode;
  /** How late each reply comes in "slow" mode (milliseconds). */
  delayMs: number;
  /** The messages accepted so far, in order. */
  received: ReceivedMail[];
  /** Connections opened so far (refused ones too). */
  connections: number;
  close(): Promise<void>;
};

/** The Subject header, unfolded (nodemailer encodes a long one on several lines). */
function subjectOf(raw: string): string {
  const match = raw.replace(/\r\n/g, "\n").match(/^Subject: (.*(?:\n[ \t].*)*)/im);
  return match?.[1]?.replace(/\n[ \t]+/g, " ").trim() ?? "";
}

function failure(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

export async function startSmtpServer(mode: SmtpMode = "accept"): Promise<TestSmtp> {
  const state = { mode, delayMs: 500, received: [] as ReceivedMail[], connections: 0 };
  // The greetings "hang" holds back.
  const held: Array<(error?: Error) => void> = [];
  const release = () => {
    for (const callback of held.splice(0)) callback(failure(421, "Service not available, try again later"));
  };
  const later = (callback: () => void) => (state.mode === "slow" ? setTimeout(callback, state.delayMs) : callback());
  const server = new SMTPServer({
    // Plain SMTP on loopback: no STARTTLS offered, no sign-in needed.
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onConnect(_session, callback) {
      state.connections += 1;
      if (state.mode === "refuse") return callback(failure(421, "Service not available, try again later"));
      if (state.mode === "hang") return void held.push(callback);
      later(() => callback());
    },
    onMailFrom(_address, _session, callback) {
      later(() => callback());
    },
    onRcptTo(_address, _session, callback) {
      if (state.mode === "reject-recipient") return callback(failure(550, "No such mailbox"));
      later(() => callback());
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        later(() => {
          state.received.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw, subject: subjectOf(raw) });
          callback();
        });
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    get mode() {
      return state.mode;
    },
    set mode(next: SmtpMode) {
      state.mode = next;
      if (next !== "hang") release();
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(ms: number) {
      state.delayMs = ms;
    },
    received: state.received,
    get connections() {
      return state.connections;
    },
    close: () => {
      release();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
