import { business } from "~/content/business";
import type { Mail } from "../mail.server";
import { MailButton, MailLayout, MailSignature, MailText } from "./layout.server";
import { renderMailHtml } from "./render.server";

/**
 * To the client: the IRS (or the state) rejected their return. A greeting, what happened in
 * general words, the link to the filing's page and what the firm does next: never the reject
 * codes or any tax detail, which the client reads once signed in.
 */
export type ReturnRejectedProps = {
  name: string;
  taxYear: number;
  /** "federal" or "state". */
  jurisdiction: string;
  url: string;
};

const intro = ({ taxYear, jurisdiction }: ReturnRejectedProps) =>
  `Your ${taxYear} ${jurisdiction} return, which we sent for you, was not accepted: it was sent back with a reason we can correct.`;

const outro = "We are looking at it and will tell you if we need anything from you. For your security the details are not in this e-mail: sign in to read them.";

const linkText = "See your filing";

export function ReturnRejected(props: ReturnRejectedProps) {
  return (
    <MailLayout preview={intro(props)}>
      <MailText>Hello {props.name},</MailText>
      <MailText>{intro(props)}</MailText>
      <MailButton href={props.url}>{linkText}</MailButton>
      <MailText>{outro}</MailText>
      <MailSignature />
    </MailLayout>
  );
}

export function returnRejectedText(props: ReturnRejectedProps): string {
  return [`Hello ${props.name},`, "", intro(props), "", `${linkText}: ${props.url}`, "", outro, "", business.name].join("\n");
}

export function returnRejected(props: ReturnRejectedProps): Pick<Mail, "text" | "html"> {
  return { text: returnRejectedText(props), html: renderMailHtml(<ReturnRejected {...props} />) };
}
