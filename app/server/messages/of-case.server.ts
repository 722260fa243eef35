import { and, eq } from "drizzle-orm";
import { caseMessages } from "~/server/db/schema";

// A case's conversation between the client and the firm. Every query names the case it is
// about: for a client, their own id from the session, never one sent by the browser; staff
// functions are called only from routes under the admin panel's layout. Hidden messages are
// absent from everything a client is given, counts included. No message text is ever logged,
// audited or e-mailed.

/** The messages of one case (one client's tax year). */
export const messagesOfCase = (clientId: string, taxYear: number) =>
  and(eq(caseMessages.clientId, clientId), eq(caseMessages.taxYear, taxYear))!;
