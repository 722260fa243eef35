import { Fragment } from "react";
import { Section } from "@react-email/section";
import type { ContactInput } from "~/domain/contact";
import type { Mail } from "../mail.server";
import { MailLayout, MailText } from "./layout.server";
import { mailColors } from "./theme.server";
import { renderMailHtml } from "./render.server";

/**
 * A contact-form message forwarded to staff: who wrote, how to reach them, when, and what they
 * wrote. Everything but the first line is the visitor's own input.
 */
export type ContactMessageProps = { input: ContactInput; receivedAt: Date };

const INTRO = "A visitor sent a message through the contact form.";

function details({ input, receivedAt }: ContactMessageProps): Array<[label: string, value: string]> {
  return [
    ["Name", input.name],
    ["Email", input.email],
    ["Phone", input.phone ?? "not given"],
    ["Subject", input.subject],
    ["Received", receivedAt.toISOString()],
  ];
}

const closing = (input: ContactInput) => `Reply to this e-mail to answer ${input.name} directly.`;

const cell = {
  padding: "4px 0",
  fontSize: "15px",
  lineHeight: "22px",
  verticalAlign: "top",
  color: mailColors.ink,
} as const;

export function ContactMessage(props: ContactMessageProps) {
  const lines = props.input.description.split(/\r?\n/);
  return (
    <MailLayout preview={INTRO}>
      <MailText>{INTRO}</MailText>
      <table
        role="presentation"
        cellPadding={0}
        cellSpacing={0}
        style={{ margin: "0 0 16px", borderCollapse: "collapse" }}
      >
        <tbody>
          {details(props).map(([label, value]) => (
            <tr key={label}>
              <td
                style={{
                  ...cell,
                  paddingRight: "16px",
                  fontWeight: 600,
                  color: mailColors.inkSoft,
                  whiteSpace: "nowrap",
                }}
              >
                {label}:
              </td>
              <td style={{ ...cell, wordBreak: "break-word" }}>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Section
        style={{ borderLeft: `3px solid ${mailColors.line}`, padding: "4px 0 4px 16px", margin: "0 0 16px" }}
      >
        <MailText>
          {lines.map((line, i) => (
            <Fragment key={i}>
              {i > 0 && <br />}
              {line}
            </Fragment>
          ))}
        </MailText>
      </Section>
      <MailText>{closing(props.input)}</MailText>
    </MailLayout>
  );
}

export function contactMessageText(props: ContactMessageProps): string {
  return [
    INTRO,
    ``,
    ...details(props).map(([label, value]) => `${label}: ${value}`),
    ``,
    props.input.description,
    ``,
    closing(props.input),
  ].join("\n");
}

export function contactMessage(props: ContactMessageProps): Pick<Mail, "text" | "html"> {
  return { text: contactMessageText(props), html: renderMailHtml(<ContactMessage {...props} />) };
}
