import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Transporter } from "nodemailer";
import { getEnv } from "~/server/platform/env.server";

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
};

let smtp: { url: string; transport: Transporter } | undefined;

/**
 * The SMTP transport for `url` (a new one when SMTP_URL changed). A server that does not answer
 * is given up on in seconds rather than minutes: a try must end well within the outbox's claim
 * on its row (outbox.server.ts CLAIM_LEASE_MS), and an e-mail sent during a request holds it up.
 */
function smtpTransport(url: string): Transporter {
  if (smtp?.url !== url) {
    smtp?.transport.close();
    smtp = {
      url,
      transport: nodemailer.createTransport({ url, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 }),
    };
  }
  return smtp.transport;
}

/** Every http(s) link in a message, for the development log line in outbox mode. */
export function linksIn(text: string): string[] {
  return Array.from(text.matchAll(/https?:\/\/[^\s<>"')]+/g), (m) => m[0]);
}

/**
 * Sends one e-mail (the outbox's transport: outbox.server.ts queues every e-mail and calls this
 * to send it). With SMTP_URL it goes out over SMTP; without it the message is
 * written to DATA_DIR/outbox as an .eml file and its subject and file are logged, never its
 * body. Links carry one-time tokens, so they are logged only in development (NODE_ENV=development),
 * where clicking them from the console is the point.
 */
/** Orders the files of one process's e-mails written within one millisecond (their names sort as written). */
let outboxFileSequence = 0;

export async function sendMail(mail: Mail): Promise<void> {
  const env = getEnv();
  const message = {
    from: env.mailFrom,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    replyTo: mail.replyTo,
  };
  if (env.smtpUrl) {
    await smtpTransport(env.smtpUrl).sendMail(message);
    return;
  }
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  const info = await stream.sendMail(message);
  const outbox = path.join(env.dataDir, "outbox");
  await mkdir(outbox, { recursive: true, mode: 0o700 });
  const sequence = String(outboxFileSequence++ % 1_000_000).padStart(6, "0");
  const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, "-")}-${sequence}-${randomUUID()}.eml`);
  await writeFile(file, info.message as Buffer, { mode: 0o600 });
  const links = env.nodeEnv === "development" ? linksIn(mail.text) : [];
  console.info(
    `[mail] outbox: "${mail.subject}" -> ${file}${links.length ? `\n[mail] links: ${links.join(" ")}` : ""}`,
  );
}
