// What a client may send in a short time, per account (app/server/limits/client-limits.server.ts
// counts it), and what a page says when a post is refused for it.

/** The kinds of client writes that are counted, each on its own. */
export type ClientWriteKind = "message" | "taxInfo" | "upload" | "answer";

/** The answer to a post past its kind's limit (status 429), as the page shows it. */
export const CLIENT_LIMIT_MESSAGES: Record<ClientWriteKind, string> = {
  message: "You have sent too many messages in a short time. Please wait a few minutes and try again.",
  taxInfo: "You have saved your taxpayer information too many times in a short time. Please wait a few minutes and try again.",
  upload: "You have sent too many uploads in a short time. Please wait a few minutes and try again.",
  answer: "You have answered requested items too many times in a short time. Please wait a few minutes and try again.",
};
