import { business } from "~/content/business";
import type { Mail } from "../mail.server";
import { MailButton, MailLayout, MailSignature, MailText } from "./layout.server";
import { renderMailHtml } from "./render.server";

/**
 * A notice made of an introduction, one link and a closing line, signed by the firm: most of the
 * product's e-mails. The words are the caller's; this file only lays them out, once as HTML and
 * once as plain text.
 */
export type LinkNoticeProps = {
  intro: string;
  /** The button's label, and in the text part the words before the address. */
  linkText: string;
  url: string;
  outro: string;
};

export function LinkNotice({ intro, linkText, url, outro }: LinkNoticeProps) {
  return (
    <MailLayout preview={intro}>
      <MailText>{intro}</MailText>
      <MailButton href={url}>{linkText}</MailButton>
      <MailText>{outro}</MailText>
      <MailSignature />
    </MailLayout>
  );
}

export function linkNoticeText({ intro, linkText, url, outro }: LinkNoticeProps): string {
  return `${intro}\n\n${linkText}: ${url}\n\n${outro}\n\n${business.name}`;
}

export function linkNotice(props: LinkNoticeProps): Pick<Mail, "text" | "html"> {
  return { text: linkNoticeText(props), html: renderMailHtml(<LinkNotice {...props} />) };
}
