import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export type OutboxMail = { file: string; to: string; subject: string; raw: string; text: string };

function header(raw: string, name: string): string {
  const match = raw.match(new RegExp(`^${name}: (.*(?:\\n[ \\t].*)*)`, "mi"));
  return match?.[1]?.replace(/\n[ \t]+/g, " ").trim() ?? "";
}

/** Decodes a quoted-printable body (what nodemailer writes for long text lines). */
function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

function decodePart(part: string): string {
  const split = part.indexOf("\n\n");
  const head = part.slice(0, split);
  const body = part.slice(split + 2);
  const encoding = header(head, "Content-Transfer-Encoding").toLowerCase();
  if (encoding === "quoted-printable") return decodeQuotedPrintable(body);
  if (encoding === "base64") return Buffer.from(body, "base64").toString("utf8");
  return body;
}

/** The text/plain body of a message, single-part or multipart. */
function plainText(raw: string): string {
  const head = raw.slice(0, raw.indexOf("\n\n"));
  const boundary = header(head, "Content-Type").match(/boundary="?([^";]+)"?/)?.[1];
  if (!boundary) return decodePart(raw);
  const parts = raw.split(`--${boundary}`).map((p) => p.replace(/^\n/, ""));
  const plain = parts.find((p) => /^Content-Type: text\/plain/im.test(p.slice(0, p.indexOf("\n\n"))));
  return plain ? decodePart(plain).trimEnd() : "";
}

/** The messages written to DATA_DIR/outbox, oldest first. */
export function readOutbox(dataDir: string): OutboxMail[] {
  const dir = path.join(dataDir, "outbox");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".eml"))
    .sort()
    .map((f) => {
      const file = path.join(dir, f);
      const raw = readFileSync(file, "utf8").replace(/\r\n/g, "\n");
      const split = raw.indexOf("\n\n");
      const head = raw.slice(0, split);
      return { file, to: header(head, "To"), subject: header(head, "Subject"), raw, text: plainText(raw) };
    });
}
