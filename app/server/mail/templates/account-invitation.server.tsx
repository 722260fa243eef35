import { business } from "~/content/business";
import type { Mail } from "../mail.server";
import { MailButton, MailLayout, MailSignature, MailText } from "./layout.server";
import { renderMailHtml } from "./render.server";

/**
 * An invitation to an account (a client's or a staff member's): a greeting, what the account
 * is, the link to choose a password and how long it works, and one closing line.
 */
export type AccountInvitationProps = {
  name: string;
  intro: string;
  link: string;
  hours: number;
  outro: string;
};

const linkLine = (hours: number) => `Choose your password here (the link works once, for ${hours} hours)`;

export function AccountInvitation({ name, intro, link, hours, outro }: AccountInvitationProps) {
  return (
    <MailLayout preview={intro}>
      <MailText>Hello {name},</MailText>
      <MailText>{intro}</MailText>
      <MailText>{linkLine(hours)}:</MailText>
      <MailButton href={link}>Choose my password</MailButton>
      <MailText>{outro}</MailText>
      <MailSignature />
    </MailLayout>
  );
}

export function accountInvitationText({ name, intro, link, hours, outro }: AccountInvitationProps): string {
  return [`Hello ${name},`, ``, intro, ``, `${linkLine(hours)}: ${link}`, ``, outro, ``, business.name].join(
    "\n",
  );
}

export function accountInvitation(props: AccountInvitationProps): Pick<Mail, "text" | "html"> {
  return { text: accountInvitationText(props), html: renderMailHtml(<AccountInvitation {...props} />) };
}
