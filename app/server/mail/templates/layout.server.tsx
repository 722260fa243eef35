import { Body } from "@react-email/body";
import { Button } from "@react-email/button";
import { Container } from "@react-email/container";
import { Head } from "@react-email/head";
import { Hr } from "@react-email/hr";
import { Html } from "@react-email/html";
import { Link } from "@react-email/link";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import type { CSSProperties, ReactNode } from "react";
import { business } from "~/content/business";
import { mailColors, mailFont } from "./theme.server";

/**
 * The frame every e-mail shares: the firm's name on an ink band, a white card for the message,
 * and a footer with the firm's address and contacts. Tables and inline styles only (the
 * react-email primitives), which is what mail clients render alike.
 */

const paragraph: CSSProperties = {
  margin: "0 0 16px",
  fontSize: "16px",
  lineHeight: "26px",
  color: mailColors.ink,
};

const small: CSSProperties = {
  margin: "0 0 4px",
  fontSize: "13px",
  lineHeight: "20px",
  color: mailColors.inkMuted,
};

/**
 * The line an inbox shows next to the subject, hidden in the message itself. The Preview
 * primitive pads it with some 80 invisible characters so that no body text follows it in the
 * inbox; written as quoted-printable they would add about 4 KB to every message, so this is the
 * same hidden block without the padding.
 */
function MailPreview({ text }: { text: string }) {
  return (
    <div
      style={{
        display: "none",
        overflow: "hidden",
        lineHeight: "1px",
        opacity: 0,
        maxHeight: 0,
        maxWidth: 0,
      }}
      data-skip-in-text="true"
    >
      {text}
    </div>
  );
}

export function MailLayout({ preview, children }: { preview: string; children: ReactNode }) {
  return (
    <Html lang="en">
      <Head>
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
      </Head>
      <MailPreview text={preview} />
      <Body
        style={{ backgroundColor: mailColors.surface, margin: 0, padding: "24px 12px", fontFamily: mailFont }}
      >
        <Container
          style={{
            maxWidth: "600px",
            backgroundColor: mailColors.white,
            border: `1px solid ${mailColors.line}`,
            borderRadius: "8px",
          }}
        >
          <Section
            style={{ backgroundColor: mailColors.ink, borderRadius: "8px 8px 0 0", padding: "16px 24px" }}
          >
            <Text
              style={{
                margin: 0,
                fontSize: "20px",
                lineHeight: "28px",
                fontWeight: 700,
                color: mailColors.white,
              }}
            >
              {business.name}
            </Text>
          </Section>
          <Section style={{ padding: "24px 24px 8px" }}>{children}</Section>
          <Section style={{ padding: "0 24px 24px" }}>
            <Hr style={{ borderTop: `1px solid ${mailColors.line}`, margin: "0 0 16px" }} />
            <Text style={{ ...small, fontWeight: 600, color: mailColors.inkSoft }}>{business.name}</Text>
            <Text style={small}>{business.address.lines.join(", ")}</Text>
            <Text style={small}>
              {business.phone.display} · {business.hoursLong} ·{" "}
              <Link
                href={`mailto:${business.email}`}
                style={{ color: mailColors.primary, textDecorationLine: "underline" }}
              >
                {business.email}
              </Link>
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

/** A paragraph of the message. */
export function MailText({ children }: { children: ReactNode }) {
  return <Text style={paragraph}>{children}</Text>;
}

/**
 * The message's one link, as a button, with the address written out below it for a reader whose
 * client hides buttons or who would rather paste it.
 */
export function MailButton({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Section style={{ margin: "8px 0 24px" }}>
      <Button
        href={href}
        style={{
          backgroundColor: mailColors.primary,
          color: mailColors.white,
          fontSize: "16px",
          fontWeight: 600,
          borderRadius: "6px",
          padding: "12px 20px",
        }}
      >
        {children}
      </Button>
      <Text style={{ ...small, margin: "12px 0 0", wordBreak: "break-all" }}>
        If the button does not work, copy this address into your browser:{" "}
        <Link href={href} style={{ color: mailColors.primary, textDecorationLine: "underline" }}>
          {href}
        </Link>
      </Text>
    </Section>
  );
}

/** The firm's name under the message, as the plain-text part ends. */
export function MailSignature() {
  return <Text style={paragraph}>{business.name}</Text>;
}
