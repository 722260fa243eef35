import { nameOfLetter } from "~/domain/engagement";
import { answerLetter, currentLetter, sendLetter } from "~/server/engagement/letters.server";
import { IP, UA } from "./returns";
import type { Account } from "./returns";

/**
 * The case's engagement letter sent by `staff` and accepted by the client, as the firm requires
 * before a draft return is sent for review (docs/product/engagement.md, "The draft waits"). The
 * client signs with the name the letter gives.
 */
export async function letterAccepted(staff: Account, client: Account, taxYear: number, service = "1040-nr"): Promise<void> {
  const ref = { clientId: client.id, taxYear };
  const sent = await sendLetter(staff.actor, ref, service, IP);
  if (!sent.ok) throw new Error(`no letter sent: ${JSON.stringify(sent)}`);
  const letter = await currentLetter(ref);
  const name = letter && nameOfLetter(letter.text);
  if (!letter || !name) throw new Error("the letter names no client");
  const answer = await answerLetter(client.actor, taxYear, { letterId: letter.id, decision: "accepted", agree: true, typedName: name }, { ip: IP, userAgent: UA });
  if (!answer.ok) throw new Error(`the letter was not accepted: ${JSON.stringify(answer)}`);
}
