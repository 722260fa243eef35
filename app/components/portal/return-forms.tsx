import { Download } from "lucide-react";
import { useEffect, useState } from "react";
import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Alert, Field, Input, Textarea } from "~/components/ui/field";
import { FALLBACK_TIME_ZONE, RETURN_CLIENT_MESSAGES, SPOUSE_MESSAGE_MAX } from "~/domain/return-client";
import type { ReturnFormResult, ReturnHistoryLine, SigningView } from "~/domain/return-client";

// The client's forms of the return (the filing page and the spouse's signing page): review the
// draft, sign the e-file authorisation electronically or by hand. Plain form posts with an
// `intent`: they work without JavaScript.

/** A form's answer, shown beside it when it answers that form. */
function Answer({ posted, intent }: { posted: ReturnFormResult | undefined; intent: ReturnFormResult["intent"] }) {
  if (!posted || posted.intent !== intent) return null;
  return <Alert tone={posted.ok ? "success" : "error"}>{posted.message}</Alert>;
}

/** Legal texts as written: one paragraph per line. */
function LegalText({ text, label }: { text: string; label: string }) {
  return (
    <div aria-label={label} role="region" className="max-h-72 space-y-2 overflow-y-auto rounded-lg border border-line bg-surface px-4 py-3 text-sm text-ink-soft">
      {text.split("\n").map((line, i) => (line === "" ? null : <p key={i}>{line}</p>))}
    </div>
  );
}

export type DraftView = { id: string; number: number; note: string; fileName: string; approvedAt: string | null };

/** "Review your draft return": the PDF, staff's note, Approve (with the declaration) or Ask for changes. */
export function DraftReview({
  action,
  fileUrl,
  draft,
  declaration,
  declarationVersion,
  posted,
}: {
  action: string;
  fileUrl: string;
  draft: DraftView;
  declaration: string;
  declarationVersion: string;
  posted?: ReturnFormResult;
}) {
  return (
    <div className="space-y-5">
      <p className="text-ink-soft">
        We have prepared a draft of your return (version {draft.number}). Read it carefully, then approve it or tell us what should change.
      </p>
      <a href={fileUrl} download className="inline-flex min-h-11 items-center gap-2 font-semibold text-primary-700 underline">
        <Download className="size-4" aria-hidden="true" />
        {`Download the draft (${draft.fileName})`}
      </a>
      {draft.note ? (
        <div>
          <h3 className="text-sm font-semibold text-ink">A note from us</h3>
          <p className="mt-1 whitespace-pre-line text-ink-soft">{draft.note}</p>
        </div>
      ) : null}

      <Form method="post" action={action} className="space-y-3" aria-labelledby="approve-title">
        <h3 id="approve-title" className="font-semibold text-ink">Approve</h3>
        <input type="hidden" name="intent" value="approve-draft" />
        <input type="hidden" name="versionId" value={draft.id} />
        <input type="hidden" name="declarationVersion" value={declarationVersion} />
        <LegalText text={declaration} label="Approval declaration" />
        <label className="flex min-h-11 cursor-pointer items-start gap-3">
          <input type="checkbox" name="agree" className="mt-1 size-5 shrink-0 accent-primary-600" />
          <span className="text-ink">I have read the draft and I agree with the declaration above.</span>
        </label>
        <Answer posted={posted} intent="approve-draft" />
        <Button type="submit" className="min-h-11">Approve the draft</Button>
      </Form>

      <Form method="post" action={action} className="space-y-3 border-t border-line pt-5">
        <input type="hidden" name="intent" value="ask-changes" />
        <input type="hidden" name="versionId" value={draft.id} />
        <Field id="changes-comment" label="Ask for changes" hint="Tell us what should change. Your comment goes to your messages with us.">
          {(props) => <Textarea {...props} name="comment" rows={4} maxLength={2000} />}
        </Field>
        <Answer posted={posted} intent="ask-changes" />
        <Button type="submit" variant="secondary" className="min-h-11">Ask for changes</Button>
      </Form>
    </div>
  );
}

/** The browser's time zone in a hidden field, set by script; the firm's without JavaScript. */
function TimeZoneInput() {
  const [zone, setZone] = useState<string>(FALLBACK_TIME_ZONE);
  useEffect(() => {
    const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (own) setZone(own);
  }, []);
  return <input type="hidden" name="timeZone" value={zone} />;
}

/**
 * "Sign your e-file authorisation": download the form; sign electronically (after an ID check) or
 * by hand. Once a hand-signed form is uploaded and waits for staff, only that is said: nothing
 * more is asked of the signer unless staff send it back.
 */
export function SigningForms({
  action,
  uploadUrl,
  formUrl,
  signing,
  posted,
}: {
  action: string;
  /** Where the hand-signed form is uploaded (an address of its own, which sends the browser back). */
  uploadUrl: string;
  formUrl: string;
  signing: SigningView;
  posted?: ReturnFormResult;
}) {
  const form = `Form ${signing.authorizationForm}`;
  if (signing.waiting)
    return (
      <div role="status">
        <Alert tone="success">{RETURN_CLIENT_MESSAGES.uploaded}</Alert>
      </div>
    );
  const handUpload = (
    // A document post: the upload's address answers with the way back to the page.
    <form method="post" action={uploadUrl} encType="multipart/form-data" className="space-y-3">
      <Field id="signed-file" label={`The signed ${form} (PDF, JPEG or PNG)`} hint="A scan, or a clear photo taken with your phone.">
        {(props) => <Input {...props} type="file" name="file" accept="application/pdf,image/jpeg,image/png,.pdf,.jpg,.jpeg,.png" />}
      </Field>
      <Answer posted={posted} intent="upload-signed" />
      <Button type="submit" variant={signing.eSignature ? "secondary" : "primary"} className="min-h-11">Upload the signed form</Button>
    </form>
  );
  return (
    <div className="space-y-5">
      <a href={formUrl} download className="inline-flex min-h-11 items-center gap-2 font-semibold text-primary-700 underline">
        <Download className="size-4" aria-hidden="true" />
        {`Download ${form}`}
      </a>
      {signing.returnedReason ? (
        <Alert tone="warning">{`We could not accept the signed form you sent: ${signing.returnedReason} Please sign and upload it again.`}</Alert>
      ) : null}
      {signing.eSignature ? (
        <>
          <Form method="post" action={action} className="space-y-3">
            <input type="hidden" name="intent" value="send-code" />
            <p className="text-ink-soft">We will e-mail you a 6-digit code to confirm it is you.</p>
            <Answer posted={posted} intent="send-code" />
            <Button type="submit" variant="secondary" className="min-h-11">Send me a code</Button>
          </Form>
          <Form method="post" action={action} className="space-y-4 border-t border-line pt-5">
            <input type="hidden" name="intent" value="sign" />
            <input type="hidden" name="consentVersion" value={signing.consentVersion} />
            <input type="hidden" name="declarationVersion" value={signing.declarationVersion} />
            <TimeZoneInput />
            <LegalText text={signing.consent} label="Consent to sign electronically" />
            <label className="flex min-h-11 cursor-pointer items-start gap-3">
              <input type="checkbox" name="consent" className="mt-1 size-5 shrink-0 accent-primary-600" />
              <span className="text-ink">I agree to sign electronically</span>
            </label>
            <LegalText text={signing.declaration} label={`What you declare on ${form}`} />
            <Field id="typed-name" label="Your full legal name" hint={`As on your tax return: ${signing.name}.`}>
              {(props) => <Input {...props} name="typedName" autoComplete="name" />}
            </Field>
            <Field id="signing-code" label="The 6-digit code from the e-mail">
              {(props) => <Input {...props} name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]*" maxLength={6} />}
            </Field>
            <Answer posted={posted} intent="sign" />
            <Button type="submit" className="min-h-11">{`Sign ${form}`}</Button>
          </Form>
          <details className="border-t border-line pt-5" open={posted?.intent === "upload-signed" || undefined}>
            <summary className="min-h-11 cursor-pointer font-semibold text-primary-700">Sign on paper instead</summary>
            <p className="my-3 text-ink-soft">Download the form, sign it by hand, and upload a scan or a phone photo of it.</p>
            {handUpload}
          </details>
        </>
      ) : (
        <>
          <p className="text-ink-soft">
            {`Please sign ${form} by hand: download it, print it, sign it, then upload a scan or a phone photo of the signed form (PDF, JPEG or PNG). To sign electronically instead, we first need to check your ID in person or by live video: send us a message if you would like that.`}
          </p>
          {handUpload}
        </>
      )}
    </div>
  );
}

/** The spouse's message to the firm, from their signing page (they have no conversation of their own). */
export function SpouseMessage({ action, posted }: { action: string; posted?: ReturnFormResult }) {
  const sent = posted?.intent === "message" && posted.ok;
  return (
    <Form key={sent ? "sent" : "writing"} method="post" action={action} className="space-y-3">
      <input type="hidden" name="intent" value="message" />
      <Field id="spouse-message" label="Your message" hint="A question about the form, or a wish to sign electronically: it reaches the firm, with your joint return's file.">
        {(props) => <Textarea {...props} name="body" rows={4} maxLength={SPOUSE_MESSAGE_MAX} required />}
      </Field>
      <Answer posted={posted} intent="message" />
      <Button type="submit" variant="secondary" className="min-h-11">Send the message</Button>
    </Form>
  );
}

/** The return's events in the client's words, oldest first. */
export function ReturnHistory({ lines }: { lines: readonly ReturnHistoryLine[] }) {
  if (lines.length === 0) return null;
  return (
    <ol className="space-y-3" aria-label="Your return">
      {lines.map((line, i) => (
        <li key={`${line.at}-${i}`} className="border-l-2 border-primary-200 pl-3">
          <p className="text-ink">
            {line.text}
            {line.link ? (
              <>
                {": "}
                <Link to={line.link.to} className="font-semibold text-primary-700 underline">
                  {line.link.label}
                </Link>
              </>
            ) : null}
          </p>
          {line.codes && line.codes.length > 0 ? (
            <ul className="mt-2 space-y-2">
              {line.codes.map((c) => (
                <li key={c.code} className="rounded-lg bg-surface px-3 py-2 text-sm">
                  <p className="font-semibold text-ink">{`${c.code}: ${c.title}`}</p>
                  <p className="text-ink-soft">{c.explanation}</p>
                  <p className="mt-1 text-ink">{`What to do: ${c.whatToDo}`}</p>
                </li>
              ))}
            </ul>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
