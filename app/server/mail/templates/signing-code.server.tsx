import { business } from "~/content/business";
import type { Mail } from "../mail.server";
import { MailLayout, MailSignature, MailText } from "./layout.server";
import { renderMailHtml } from "./render.server";

/** A one-time code to sign an authorisation form: the code, how long it works, and who asked. */
export type SigningCodeProps = { name: string; code: string; minutes: number };

const intro = ({ name }: SigningCodeProps) => `Hello ${name}, here is your code to sign your tax return's e-file authorisation with ${business.name}:`;
const outro = ({ minutes }: SigningCodeProps) =>
  `The code works once, for ${minutes} minutes. If you did not ask for it, do not share it with anyone and tell us.`;

export function SigningCode(props: SigningCodeProps) {
  return (
    <MailLayout preview={`Your signing code for ${business.name}`}>
      <MailText>{intro(props)}</MailText>
      <MailText>
        <strong style={{ fontSize: "24px", letterSpacing: "4px" }}>{props.code}</strong>
      </MailText>
      <MailText>{outro(props)}</MailText>
      <MailSignature />
    </MailLayout>
  );
}

export function signingCodeText(props: SigningCodeProps): string {
  return [intro(props), "", props.code, "", outro(props), "", business.name].join("\n");
}

export function signingCode(props: SigningCodeProps): Pick<Mail, "text" | "html"> {
  return { text: signingCodeText(props), html: renderMailHtml(<SigningCode {...props} />) };
}
