import { FileSignature, FileText, Fingerprint, PackageCheck, Send } from "lucide-react";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { Alert, Input, inputClass, Textarea } from "~/components/ui/field";
import { LocalTime } from "~/components/ui/local-time";
import { caseSectionPath } from "~/domain/case-sections";
import { ID_DOCUMENT_LABELS, ID_METHOD_LABELS, shortSha256 } from "~/domain/return-section";
import type { ReturnIntent, ReturnSectionData, SectionRequest } from "~/domain/return-section";
import { describeRejectCode, REJECT_CODES } from "~/domain/reject-codes";
import { TOLERANCE_LABELS } from "~/domain/irs-tolerance";
import { ID_CHECK_METHODS, ID_DOCUMENT_TYPES, JURISDICTIONS, MAX_RETURN_NOTE_LENGTH, RETURN_FORMS } from "~/domain/returns";
import { RESIDENCY_RETURN_TEXTS } from "~/domain/residency/return-form";
import { CaseSection } from "./case-section";
import { IntentSubmit } from "./intent-submit";

/** A refused form of the section: its message and what was typed, shown again. */
export type ReturnActionResult = { intent: ReturnIntent | "unknown"; ok: false; message: string; values?: Record<string, string> };

const selectClass = `${inputClass} border-line`;
const labelClass = "mb-1.5 block text-sm font-medium text-ink";
const JURISDICTION_LABELS = { federal: "Federal (IRS)", state: "State" } as const;

/**
 * The case's return, for staff (docs/product/return-and-signature.md): the draft's versions and
 * the client's reviews, the identity checks, the signature request, the e-file history and the
 * final copies. Every form is a plain POST with its `intent`; a refusal is shown beside its form.
 */
export function ReturnSection({
  clientId,
  taxYear,
  section,
  letterWaits,
  done,
  today,
  result,
}: {
  clientId: string;
  taxYear: number;
  section: ReturnSectionData;
  /** The firm requires an accepted engagement letter and the case has none: an upload is refused. */
  letterWaits: boolean;
  done: string | null;
  today: string;
  result?: ReturnActionResult;
}) {
  const refusal = (intent: ReturnIntent) => (result?.intent === intent ? result : undefined);
  return (
    <div className="space-y-6">
      {done ? <Alert tone="success">{done}</Alert> : null}
      {result?.intent === "unknown" ? <Alert tone="error">{result.message}</Alert> : null}
      <Versions clientId={clientId} taxYear={taxYear} section={section} letterWaits={letterWaits} refused={refusal("upload-version")} />
      <IdChecks section={section} refused={refusal("id-check")} today={today} />
      <Signature section={section} result={result} />
      <Efile section={section} result={result} today={today} />
      <FinalCopies section={section} refused={refusal("release-final")} />
    </div>
  );
}

function Refusal({ result, id }: { result?: ReturnActionResult; id: string }) {
  return result ? (
    <div id={id}>
      <Alert tone="error">{result.message}</Alert>
    </div>
  ) : null;
}

function Submit(props: { intent: ReturnIntent; children: ReactNode; variant?: "primary" | "secondary" | "ghost"; name?: string; value?: string }) {
  return <IntentSubmit {...props} />;
}

function Versions({
  clientId,
  taxYear,
  section,
  letterWaits,
  refused,
}: {
  clientId: string;
  taxYear: number;
  section: ReturnSectionData;
  letterWaits: boolean;
  refused?: ReturnActionResult;
}) {
  const v = refused?.values ?? {};
  return (
    <CaseSection id="return-versions" title="Draft return" icon={<FileText className="size-5" aria-hidden="true" />} lead="Each upload is a new version. The client sees only the current one and approves it or asks for changes.">
      {section.versions.length === 0 ? (
        <p className="text-ink-soft">No version uploaded yet.</p>
      ) : (
        <ol className="space-y-3" aria-label="Versions">
          {section.versions.map((version) => (
            <li key={version.id} className={`rounded-xl border p-3 ${version.superseded ? "border-line bg-surface text-ink-muted" : "border-primary-200 bg-white"}`}>
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <p className="font-semibold text-ink">
                  Version {version.number} · Form {version.form}{" "}
                  {version.superseded ? (
                    <span className="ml-1 rounded-full bg-surface px-2 py-0.5 text-xs font-medium text-ink-muted ring-1 ring-line">Superseded</span>
                  ) : (
                    <span className="ml-1 rounded-full bg-primary-50 px-2 py-0.5 text-xs font-medium text-primary-700">Current</span>
                  )}
                </p>
                <a className="text-sm font-semibold text-primary-700 underline" href={`/admin/clients/${encodeURIComponent(clientId)}/return-versions/${version.id}`}>
                  Download version {version.number}
                </a>
              </div>
              <p className="mt-1 text-sm">
                Uploaded <LocalTime iso={version.uploadedAt} /> by {version.uploadedBy ?? "a former staff member"} · {version.fileName}
              </p>
              <div className="mt-1 text-sm">
                SHA-256{" "}
                <code className="break-all font-mono text-xs" title={version.sha256}>
                  {shortSha256(version.sha256)}
                </code>
                <details className="inline-block align-top sm:ml-2">
                  <summary className="cursor-pointer text-xs text-primary-700">Full SHA-256</summary>
                  <code className="block break-all font-mono text-xs">{version.sha256}</code>
                </details>
              </div>
              {version.note ? <p className="mt-1 whitespace-pre-wrap break-words text-sm">Note for the client: {version.note}</p> : null}
              <p className="mt-1 text-sm font-medium">
                {version.review === null ? (
                  "Not reviewed by the client yet."
                ) : version.review.decision === "approved" ? (
                  <span className="text-green-800">
                    Approved by the client <LocalTime iso={version.review.at} />
                  </span>
                ) : (
                  <span className="text-accent-700">
                    Changes asked <LocalTime iso={version.review.at} />
                    {version.review.comment ? `: ${version.review.comment}` : ""}
                  </span>
                )}
              </p>
            </li>
          ))}
        </ol>
      )}
      <Form key={section.versions.length} method="post" encType="multipart/form-data" preventScrollReset className="mt-5 space-y-3" aria-label="Upload a draft return">
        <input type="hidden" name="intent" value="upload-version" />
        <h3 className="font-semibold text-ink">Upload a new version</h3>
        {letterWaits ? (
          <Alert tone="warning">
            The draft waits for the client&apos;s engagement letter: an upload is refused until the client accepts it.{" "}
            <Link to={caseSectionPath(clientId, taxYear, "engagement")} className="font-medium underline">
              Go to the Engagement section
            </Link>
          </Alert>
        ) : null}
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <label htmlFor="version-form" className={labelClass}>
              Form
            </label>
            <select
              id="version-form"
              name="form"
              required
              defaultValue={v.form ?? section.residencyForm ?? section.versions[0]?.form ?? "1040-NR"}
              aria-describedby={section.residencyForm ? "version-form-hint" : undefined}
              className={selectClass}
            >
              {RETURN_FORMS.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
            {section.residencyForm ? (
              <p id="version-form-hint" className="mt-1 text-sm text-ink-soft">
                {RESIDENCY_RETURN_TEXTS.hint(section.residencyForm)}
              </p>
            ) : null}
          </div>
          <div>
            <label htmlFor="version-file" className={labelClass}>
              The draft return (PDF, up to 20 MB)
            </label>
            <input id="version-file" name="file" type="file" accept="application/pdf,.pdf" required className="block w-full text-sm" />
          </div>
        </div>
        <div>
          <label htmlFor="version-note" className={labelClass}>
            Note for the client (optional)
          </label>
          <Textarea id="version-note" name="note" rows={2} maxLength={MAX_RETURN_NOTE_LENGTH} defaultValue={v.note ?? ""} />
        </div>
        {section.residencyForm ? (
          <label className="flex items-start gap-2 text-sm text-ink">
            <input type="checkbox" name="formDiffers" value="yes" defaultChecked={v.formDiffers === "yes"} className="mt-1 size-4" />
            {RESIDENCY_RETURN_TEXTS.confirm}
          </label>
        ) : null}
        <Refusal result={refused} id="upload-version-error" />
        <Submit intent="upload-version">Upload version</Submit>
      </Form>
    </CaseSection>
  );
}

function IdChecks({ section, refused, today }: { section: ReturnSectionData; refused?: ReturnActionResult; today: string }) {
  const v = refused?.values ?? {};
  return (
    <CaseSection id="return-id-checks" title="Identity checks" icon={<Fingerprint className="size-5" aria-hidden="true" />} lead="A signer signs electronically only after staff saw their photo ID, in person or by live video.">
      {section.idChecks.length === 0 ? (
        <p className="text-ink-soft">No identity check recorded.</p>
      ) : (
        <ul className="space-y-2" aria-label="Recorded identity checks">
          {section.idChecks.map((c) => (
            <li key={c.id} className="rounded-xl border border-line bg-surface p-3 text-sm">
              <span className="font-semibold text-ink">{c.signer === "spouse" ? "Spouse" : "Taxpayer"}</span>: {ID_DOCUMENT_LABELS[c.documentType]} ({c.issuingCountry}) ending {c.numberLast4}, expires {c.expiresOn} · {ID_METHOD_LABELS[c.how]} · checked by {c.checkedBy ?? "a former staff member"}{" "}
              <LocalTime iso={c.checkedAt} />
            </li>
          ))}
        </ul>
      )}
      <Form key={section.idChecks.length} method="post" preventScrollReset className="mt-5 space-y-3" aria-label="Record an identity check">
        <input type="hidden" name="intent" value="id-check" />
        <h3 className="font-semibold text-ink">Record an identity check</h3>
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <label htmlFor="id-signer" className={labelClass}>
              Signer
            </label>
            <select id="id-signer" name="signer" defaultValue={v.signer ?? "taxpayer"} className={selectClass}>
              <option value="taxpayer">Taxpayer</option>
              <option value="spouse">Spouse (joint return)</option>
            </select>
          </div>
          <div>
            <label htmlFor="id-type" className={labelClass}>
              Document
            </label>
            <select id="id-type" name="documentType" required defaultValue={v.documentType ?? "passport"} className={selectClass}>
              {ID_DOCUMENT_TYPES.map((t) => (
                <option key={t} value={t}>
                  {ID_DOCUMENT_LABELS[t]}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="id-country" className={labelClass}>
              Issuing country (two-letter code)
            </label>
            <Input id="id-country" name="issuingCountry" required maxLength={2} pattern="[A-Za-z]{2}" placeholder="IN" autoComplete="off" defaultValue={v.issuingCountry ?? ""} className="uppercase" />
          </div>
          <div>
            <label htmlFor="id-expiry" className={labelClass}>
              Expiry date
            </label>
            <Input id="id-expiry" name="expiresOn" type="date" required min={today} defaultValue={v.expiresOn ?? ""} />
          </div>
          <div>
            <label htmlFor="id-last4" className={labelClass}>
              Last 4 characters of the number
            </label>
            <Input id="id-last4" name="numberLast4" required minLength={4} maxLength={4} pattern="[A-Za-z0-9]{4}" autoComplete="off" defaultValue={v.numberLast4 ?? ""} />
          </div>
          <fieldset>
            <legend className={labelClass}>How it was checked</legend>
            <div className="flex flex-wrap gap-4">
              {ID_CHECK_METHODS.map((m) => (
                <label key={m} className="inline-flex min-h-11 items-center gap-2 text-sm sm:min-h-0">
                  <input type="radio" name="how" value={m} required defaultChecked={(v.how ?? "in-person") === m} />
                  {ID_METHOD_LABELS[m]}
                </label>
              ))}
            </div>
          </fieldset>
        </div>
        <Refusal result={refused} id="id-check-error" />
        <Submit intent="id-check">Record the check</Submit>
      </Form>
    </CaseSection>
  );
}

function requestState(r: SectionRequest): string {
  if (r.cancelled !== null) return `Cancelled: ${r.cancelled}`;
  if (r.void) return "Void: a newer version of the return replaced the one signed.";
  if (r.authorised) return "Authorised: every signer has signed.";
  const missing = r.signers.filter((s) => s.signed === null).map((s) => (s.role === "spouse" ? "the spouse" : "the taxpayer"));
  return `Waiting for ${missing.join(" and ")}.`;
}

function Signature({ section, result }: { section: ReturnSectionData; result?: ReturnActionResult }) {
  const current = section.versions[0];
  const refused = result?.intent === "request-signature" ? result : undefined;
  const v = refused?.values ?? {};
  const live = section.requests.find((r) => !r.void);
  // The last request, signed by everyone and voided by a later version, may be kept for the
  // current one: the differences are those from the version it signed.
  const last = section.requests[0];
  const toleranceFor = current && last && last.void && last.cancelled === null && last.authorised && last.versionId !== current.id ? last : undefined;
  // A request cancelled on the current version: a new one may send its form again.
  const cancelled = current ? section.requests.find((r) => r.versionId === current.id && r.cancelled !== null) : undefined;
  const spouse = cancelled?.signers.find((s) => s.role === "spouse");
  const form = section.expectedForm;
  return (
    <CaseSection
      id="return-signature"
      title="Signature"
      icon={<FileSignature className="size-5" aria-hidden="true" />}
      lead="The authorisation form is Form 8879 for a return, Form 8878 for a 4868 extension. It is signed on the approved current version."
    >
      {section.requests.length === 0 ? <p className="text-ink-soft">No signature requested yet.</p> : null}
      <ol className="space-y-3" aria-label="Signature requests">
        {section.requests.map((r) => (
          <li key={r.id} className={`rounded-xl border p-3 text-sm ${r.void ? "border-line bg-surface text-ink-muted" : "border-primary-200 bg-white"}`}>
            <p className="font-semibold text-ink">
              Form {r.form} for version {r.versionNumber} · requested <LocalTime iso={r.createdAt} />
              {r.jointReturn ? " · married filing jointly" : ""}
            </p>
            <p className="mt-1 font-medium">{requestState(r)}</p>
            <ul className="mt-1 space-y-1">
              {r.signers.map((s) => (
                <li key={s.role}>
                  {s.role === "spouse" ? "Spouse" : "Taxpayer"}: {s.name} ({s.email}) ·{" "}
                  {s.signed ? (
                    <>
                      signed {s.signed.method === "e-signature" ? "electronically" : "by hand"} as {s.signed.name} <LocalTime iso={s.signed.at} />
                    </>
                  ) : (
                    "not signed yet"
                  )}
                </li>
              ))}
            </ul>
            <p className="mt-1">
              <a className="font-semibold text-primary-700 underline" href={`/documents/${r.formDocumentId}`}>
                Download the form sent (Form {r.form})
              </a>
            </p>
            {r.void
              ? null
              : r.pendingScans.map((scan) => (
                  <ScanReview key={scan.id} scan={scan} result={result} />
                ))}
            {r.authorised && !r.void ? <SignedCopy request={r} refused={result?.intent === "make-signed-copy" ? result : undefined} /> : null}
            {!r.void && !r.authorised ? <CancelRequest request={r} refused={result?.intent === "cancel-request" ? result : undefined} /> : null}
          </li>
        ))}
      </ol>
      {toleranceFor && current ? (
        <ToleranceForm versionId={current.id} versionNumber={current.number} signedNumber={toleranceFor.versionNumber} refused={result?.intent === "declare-tolerance" ? result : undefined} />
      ) : null}
      {current && !live ? (
        <Form key={section.requests.length} method="post" encType="multipart/form-data" preventScrollReset className="mt-5 space-y-3" aria-label="Request the signature">
          <input type="hidden" name="intent" value="request-signature" />
          <input type="hidden" name="versionId" value={current.id} />
          <h3 className="font-semibold text-ink">Request the signature on version {current.number}</h3>
          {current.review === null ? (
            <p className="text-sm text-accent-700">The client has not approved version {current.number} yet: the request is refused until they do.</p>
          ) : current.review.decision !== "approved" ? (
            <p className="text-sm text-accent-700">The client asked for changes to version {current.number}: the request is refused until they approve it again.</p>
          ) : null}
          <div>
            <label htmlFor="signature-form" className={labelClass}>
              {form ? `Form ${form} to sign (PDF)` : "The authorisation form (PDF)"}
            </label>
            <input
              id="signature-form"
              name="formFile"
              type="file"
              accept="application/pdf,.pdf"
              required={!cancelled}
              aria-describedby={cancelled ? "signature-form-hint" : undefined}
              className="block w-full text-sm"
            />
            {cancelled ? (
              <p id="signature-form-hint" className="mt-1 text-sm text-ink-muted">
                Leave it empty to send the form of the cancelled request again (Form {cancelled.form}).
              </p>
            ) : null}
          </div>
          <label className="inline-flex min-h-11 items-center gap-2 text-sm sm:min-h-0">
            <input type="checkbox" name="jointReturn" value="on" defaultChecked={(v.jointReturn ?? (spouse ? "on" : "")) === "on"} />
            Married filing jointly (the spouse signs too)
          </label>
          <div className="grid gap-3 sm:grid-cols-2">
            <div>
              <label htmlFor="spouse-name" className={labelClass}>
                Spouse's name (joint return)
              </label>
              <Input id="spouse-name" name="spouseName" autoComplete="off" defaultValue={v.spouseName ?? spouse?.name ?? ""} />
            </div>
            <div>
              <label htmlFor="spouse-email" className={labelClass}>
                Spouse's e-mail address (joint return)
              </label>
              <Input id="spouse-email" name="spouseEmail" type="email" autoComplete="off" defaultValue={v.spouseEmail ?? spouse?.email ?? ""} />
            </div>
          </div>
          <Refusal result={refused} id="request-signature-error" />
          <Submit intent="request-signature">Request the signature</Submit>
        </Form>
      ) : null}
    </CaseSection>
  );
}

function ScanReview({ scan, result }: { scan: SectionRequest["pendingScans"][number]; result?: ReturnActionResult }) {
  const mine = (result?.intent === "accept-scan" || result?.intent === "return-scan") && result.values?.uploadId === scan.id ? result : undefined;
  const reasonId = `scan-reason-${scan.id}`;
  return (
    <div className="mt-3 rounded-lg border border-accent-500 bg-accent-50 p-3">
      <p className="font-medium text-ink">
        {scan.role === "spouse" ? "The spouse" : "The taxpayer"} ({scan.name}) uploaded the form signed by hand <LocalTime iso={scan.at} />:{" "}
        <a className="font-semibold text-primary-700 underline" href={`/documents/${scan.documentId}`}>
          {scan.fileName}
        </a>
      </p>
      <div className="mt-2 flex flex-wrap items-end gap-3">
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="accept-scan" />
          <input type="hidden" name="uploadId" value={scan.id} />
          <Submit intent="accept-scan">Accept</Submit>
        </Form>
        <Form method="post" preventScrollReset className="flex flex-wrap items-end gap-2">
          <input type="hidden" name="intent" value="return-scan" />
          <input type="hidden" name="uploadId" value={scan.id} />
          <div>
            <label htmlFor={reasonId} className={labelClass}>
              Reason to send it back
            </label>
            <Input id={reasonId} name="reason" required defaultValue={mine?.values?.reason ?? ""} />
          </div>
          <Submit intent="return-scan" variant="secondary">
            Send back
          </Submit>
        </Form>
      </div>
      <Refusal result={mine} id={`scan-error-${scan.id}`} />
    </div>
  );
}

function SignedCopy({ request, refused }: { request: SectionRequest; refused?: ReturnActionResult }) {
  if (request.signedCopy)
    return (
      <p className="mt-2">
        <a className="font-semibold text-primary-700 underline" href={`/documents/${request.signedCopy.documentId}`}>
          Download the signed copy
        </a>{" "}
        <span className="text-ink-muted">
          (SHA-256{" "}
          <code className="font-mono text-xs" title={request.signedCopy.sha256}>
            {shortSha256(request.signedCopy.sha256)}
          </code>
          )
        </span>
      </p>
    );
  return (
    <Form method="post" preventScrollReset className="mt-2 space-y-2">
      <input type="hidden" name="intent" value="make-signed-copy" />
      <input type="hidden" name="requestId" value={request.id} />
      <p className="text-accent-700">The signed copy has not been made.</p>
      <Refusal result={refused} id="signed-copy-error" />
      <Submit intent="make-signed-copy" variant="secondary">
        Make the signed copy
      </Submit>
    </Form>
  );
}

/** Cancel a request still waiting for signatures, with the reason (its links stop working; a new request sends new ones). */
function CancelRequest({ request, refused }: { request: SectionRequest; refused?: ReturnActionResult }) {
  const mine = refused?.values?.requestId === request.id ? refused : undefined;
  const reasonId = `cancel-reason-${request.id}`;
  return (
    <Form method="post" preventScrollReset className="mt-3 space-y-2 border-t border-line pt-3" aria-label="Cancel the signature request">
      <input type="hidden" name="intent" value="cancel-request" />
      <input type="hidden" name="requestId" value={request.id} />
      <div>
        <label htmlFor={reasonId} className={labelClass}>
          Reason to cancel (kept in the case's history)
        </label>
        <Input id={reasonId} name="reason" required maxLength={MAX_RETURN_NOTE_LENGTH} placeholder="The spouse's e-mail address was wrong." defaultValue={mine?.values?.reason ?? ""} />
      </div>
      <p className="text-ink-muted">The signers' links stop working. Then request the signature again: the same form, new links, to the addresses you enter.</p>
      <Refusal result={mine} id={`cancel-error-${request.id}`} />
      <Submit intent="cancel-request" variant="secondary">
        Cancel the request
      </Submit>
    </Form>
  );
}

function ToleranceForm({ versionId, versionNumber, signedNumber, refused }: { versionId: string; versionNumber: number; signedNumber: number; refused?: ReturnActionResult }) {
  const v = refused?.values ?? {};
  const fields = [
    ["incomeOrAgi", TOLERANCE_LABELS.incomeOrAgiCents],
    ["tax", TOLERANCE_LABELS.taxCents],
    ["withholding", TOLERANCE_LABELS.withholdingCents],
    ["refundOrOwed", TOLERANCE_LABELS.refundOrOwedCents],
  ] as const;
  return (
    <Form method="post" preventScrollReset className="mt-5 space-y-3 rounded-xl border border-line p-3" aria-label="Declare the change within the IRS tolerances">
      <input type="hidden" name="intent" value="declare-tolerance" />
      <input type="hidden" name="versionId" value={versionId} />
      <h3 className="font-semibold text-ink">Version {versionNumber} replaced version {signedNumber}, the one signed</h3>
      <p className="text-sm text-ink-muted">
        Compare version {versionNumber} with version {signedNumber}, the version signed (not the last one before it). If each difference stays within the IRS tolerances, declare the differences in dollars and the signature holds. Otherwise request a new signature.
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        {fields.map(([name, label]) => (
          <div key={name}>
            <label htmlFor={`tolerance-${name}`} className={labelClass}>
              {label}
            </label>
            <Input id={`tolerance-${name}`} name={name} inputMode="decimal" required defaultValue={v[name] ?? ""} placeholder="0.00" />
          </div>
        ))}
      </div>
      <Refusal result={refused} id="tolerance-error" />
      <Submit intent="declare-tolerance">Declare within tolerance</Submit>
    </Form>
  );
}

function Efile({ section, result, today }: { section: ReturnSectionData; result?: ReturnActionResult; today: string }) {
  const transmitRefused = result?.intent === "transmit" ? result : undefined;
  const v = transmitRefused?.values ?? {};
  const openFor = new Map(section.openRejections.map((o) => [o.id, o]));
  return (
    <CaseSection id="return-efile" title="E-file" icon={<Send className="size-5" aria-hidden="true" />} lead="What was transmitted with the tax software, and what the IRS or the state answered.">
      {section.efile.length === 0 ? (
        <p className="text-ink-soft">Nothing transmitted yet.</p>
      ) : (
        <ol className="space-y-2" aria-label="E-file history">
          {section.efile.map((e) => {
            const open = openFor.get(e.id);
            return (
              <li key={e.id} className="rounded-xl border border-line bg-surface p-3 text-sm">
                <p className="font-semibold text-ink">
                  {JURISDICTION_LABELS[e.jurisdiction]}: {e.kind === "transmitted" ? `transmitted on ${e.date} (submission ${e.submissionId ?? ""})` : e.kind === "accepted" ? `accepted on ${e.date}` : `rejected on ${e.date}`}
                </p>
                {e.kind === "rejected" ? (
                  <ul className="mt-1 list-disc pl-5">
                    {e.codes.map((code) => (
                      <li key={code}>
                        <span className="font-mono">{code}</span>: {describeRejectCode(code, { deadlinePassed: false }).title}
                      </li>
                    ))}
                  </ul>
                ) : null}
                {e.note ? <p className="mt-1 whitespace-pre-wrap break-words">Note: {e.note}</p> : null}
                {open ? (
                  <p className={`mt-1 font-medium ${open.daysLeft < 0 ? "text-red-700" : "text-accent-700"}`}>
                    {open.daysLeft < 0
                      ? `The time to send it again on time ended on ${open.resendBy}.`
                      : open.daysLeft === 0
                        ? `Today (${open.resendBy}) is the last day to send it again on time.`
                        : `${open.daysLeft} ${open.daysLeft === 1 ? "day" : "days"} left to send it again (by ${open.resendBy}).`}
                  </p>
                ) : null}
                <p className="mt-1 text-ink-muted">
                  Recorded by {e.recordedBy ?? "a former staff member"} <LocalTime iso={e.recordedAt} />
                </p>
              </li>
            );
          })}
        </ol>
      )}
      {section.waiting.map((t) => (
        <Answer key={t.id} transmission={t} result={result} today={today} />
      ))}
      <Form key={section.efile.length} method="post" preventScrollReset className="mt-5 space-y-3" aria-label="Record a transmission">
        <input type="hidden" name="intent" value="transmit" />
        <h3 className="font-semibold text-ink">Record a transmission</h3>
        <div className="grid gap-3 sm:grid-cols-3">
          <div>
            <label htmlFor="transmit-date" className={labelClass}>
              Date
            </label>
            <Input id="transmit-date" name="date" type="date" required max={today} defaultValue={v.date ?? today} />
          </div>
          <div>
            <label htmlFor="transmit-submission" className={labelClass}>
              Submission id
            </label>
            <Input id="transmit-submission" name="submissionId" required maxLength={40} autoComplete="off" defaultValue={v.submissionId ?? ""} />
          </div>
          <div>
            <label htmlFor="transmit-jurisdiction" className={labelClass}>
              Return
            </label>
            <select id="transmit-jurisdiction" name="jurisdiction" defaultValue={v.jurisdiction ?? "federal"} className={selectClass}>
              {JURISDICTIONS.map((j) => (
                <option key={j} value={j}>
                  {JURISDICTION_LABELS[j]}
                </option>
              ))}
            </select>
          </div>
        </div>
        <Refusal result={transmitRefused} id="transmit-error" />
        <Submit intent="transmit">Record the transmission</Submit>
      </Form>
    </CaseSection>
  );
}

function Answer({ transmission, result, today }: { transmission: ReturnSectionData["waiting"][number]; result?: ReturnActionResult; today: string }) {
  const ofThis = (intent: ReturnIntent) => (result?.intent === intent && result.values?.transmissionId === transmission.id ? result : undefined);
  const accepted = ofThis("accepted");
  const rejected = ofThis("rejected");
  const chosen = new Set((rejected?.values?.codes ?? "").split(",").filter(Boolean));
  const id = transmission.id;
  return (
    <div className="mt-5 space-y-4 rounded-xl border border-primary-200 p-3">
      <h3 className="font-semibold text-ink">
        Answer to the {transmission.jurisdiction} transmission of {transmission.date} (submission {transmission.submissionId ?? ""})
      </h3>
      <Form method="post" preventScrollReset className="flex flex-wrap items-end gap-3" aria-label="Record the acceptance">
        <input type="hidden" name="intent" value="accepted" />
        <input type="hidden" name="transmissionId" value={id} />
        <div>
          <label htmlFor={`accepted-date-${id}`} className={labelClass}>
            Accepted on
          </label>
          <Input id={`accepted-date-${id}`} name="date" type="date" required min={transmission.date} max={today} defaultValue={accepted?.values?.date ?? today} />
        </div>
        <Submit intent="accepted">Record accepted</Submit>
      </Form>
      <Refusal result={accepted} id={`accepted-error-${id}`} />
      <Form method="post" preventScrollReset className="space-y-3" aria-label="Record the rejection">
        <input type="hidden" name="intent" value="rejected" />
        <input type="hidden" name="transmissionId" value={id} />
        <div>
          <label htmlFor={`rejected-date-${id}`} className={labelClass}>
            Rejected on
          </label>
          <Input id={`rejected-date-${id}`} name="date" type="date" required min={transmission.date} max={today} defaultValue={rejected?.values?.date ?? today} className="sm:max-w-xs" />
        </div>
        <fieldset>
          <legend className={labelClass}>Reject codes</legend>
          <div className="grid gap-1 sm:grid-cols-2">
            {Object.values(REJECT_CODES).map((entry) => (
              <label key={entry.code} className="inline-flex min-h-11 items-start gap-2 text-sm sm:min-h-0">
                <input type="checkbox" name="codes" value={entry.code} defaultChecked={chosen.has(entry.code)} className="mt-1" />
                <span>
                  <span className="font-mono">{entry.code}</span>: {entry.title}
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <div>
          <label htmlFor={`rejected-other-${id}`} className={labelClass}>
            Other codes (as the IRS writes them, separated by commas)
          </label>
          <Input id={`rejected-other-${id}`} name="otherCodes" autoComplete="off" placeholder="R0000-504-02" defaultValue={rejected?.values?.otherCodes ?? ""} />
        </div>
        <div>
          <label htmlFor={`rejected-note-${id}`} className={labelClass}>
            Note for staff (optional)
          </label>
          <Textarea id={`rejected-note-${id}`} name="note" rows={2} maxLength={2000} defaultValue={rejected?.values?.note ?? ""} />
        </div>
        <Refusal result={rejected} id={`rejected-error-${id}`} />
        <Submit intent="rejected" variant="secondary">
          Record rejected
        </Submit>
      </Form>
    </div>
  );
}

function FinalCopies({ section, refused }: { section: ReturnSectionData; refused?: ReturnActionResult }) {
  const v = refused?.values ?? {};
  const current = section.versions[0];
  const signedCopy = section.requests.find((r) => !r.void && r.signedCopy)?.signedCopy;
  return (
    <CaseSection id="return-final" title="Final copies" icon={<PackageCheck className="size-5" aria-hidden="true" />} lead="Once the IRS has accepted the return: the return as filed and the signed authorisation, shared with the client.">
      {section.finalCopies ? (
        <p className="text-sm">
          Released <LocalTime iso={section.finalCopies.releasedAt} />:{" "}
          <a className="font-semibold text-primary-700 underline" href={`/documents/${section.finalCopies.filedReturnDocumentId}`}>
            the filed return
          </a>{" "}
          and{" "}
          <a className="font-semibold text-primary-700 underline" href={`/documents/${section.finalCopies.signedAuthorizationDocumentId}`}>
            the signed authorisation
          </a>
          .
        </p>
      ) : !section.accepted ? (
        <p className="text-ink-soft">The final copies are released once the IRS has accepted the federal return.</p>
      ) : (
        <Form method="post" encType="multipart/form-data" preventScrollReset className="space-y-4" aria-label="Release the final copies">
          <input type="hidden" name="intent" value="release-final" />
          {current ? <input type="hidden" name="filedVersionId" value={current.id} /> : null}
          <fieldset className="space-y-2">
            <legend className={labelClass}>The filed return</legend>
            <label className="flex min-h-11 items-center gap-2 text-sm sm:min-h-0">
              <input type="radio" name="filedReturn" value="current" defaultChecked={(v.filedReturn ?? "current") === "current"} disabled={!current} />
              {current ? `The current version (version ${current.number}, ${current.fileName})` : "The current version (none uploaded)"}
            </label>
            <label className="flex min-h-11 items-center gap-2 text-sm sm:min-h-0">
              <input type="radio" name="filedReturn" value="upload" defaultChecked={v.filedReturn === "upload"} />
              Upload a PDF
            </label>
            <input aria-label="The filed return (PDF)" name="filedReturnFile" type="file" accept="application/pdf,.pdf" className="block w-full text-sm" />
          </fieldset>
          <fieldset className="space-y-2">
            <legend className={labelClass}>The signed authorisation</legend>
            <label className="flex min-h-11 items-center gap-2 text-sm sm:min-h-0">
              <input type="radio" name="signedAuthorization" value="signed" defaultChecked={(v.signedAuthorization ?? (signedCopy ? "signed" : "upload")) === "signed"} disabled={!signedCopy} />
              {signedCopy ? "The signed copy" : "The signed copy (not made)"}
            </label>
            <label className="flex min-h-11 items-center gap-2 text-sm sm:min-h-0">
              <input type="radio" name="signedAuthorization" value="upload" defaultChecked={(v.signedAuthorization ?? (signedCopy ? "signed" : "upload")) === "upload"} />
              Upload a PDF
            </label>
            <input aria-label="The signed authorisation (PDF)" name="signedAuthorizationFile" type="file" accept="application/pdf,.pdf" className="block w-full text-sm" />
          </fieldset>
          <Refusal result={refused} id="release-final-error" />
          <Submit intent="release-final">Release the final copies</Submit>
        </Form>
      )}
    </CaseSection>
  );
}
