import { data, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/return";
import { useCaseFrame } from "~/components/admin/case/case-frame";
import { ReturnSection } from "~/components/admin/case/return-section";
import type { ReturnActionResult } from "~/components/admin/case/return-section";
import { newYorkDay } from "~/domain/business-days";
import { caseSectionPath } from "~/domain/case-sections";
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_REQUEST_BYTES } from "~/domain/documents";
import { toleranceFormSchema } from "~/domain/irs-tolerance";
import { RETURN_FILE_INTENTS, RETURN_SECTION_MESSAGES, isReturnIntent, returnDoneMessage } from "~/domain/return-section";
import type { ReturnDone, ReturnIntent } from "~/domain/return-section";
import { NO_STORE } from "~/server/auth/session.server";
import { caseOfRoute } from "~/server/cases/case-action.server";
import { caseRoom, discardReceived, receiveUpload } from "~/server/documents/upload.server";
import { draftWaitsForLetter } from "~/server/engagement/letters.server";
import type { ReceivedFile } from "~/server/documents/upload.server";
import { FORM_BODY_MAX_BYTES } from "~/server/http/body-limit.server";
import { readMultipart } from "~/server/http/multipart.server";
import { recordAccepted, recordRejected, recordTransmission } from "~/server/returns/efile.server";
import { releaseFinalCopies } from "~/server/returns/final-copies.server";
import type { FinalCopySource } from "~/server/returns/final-copies.server";
import { acceptHandwritten, returnHandwritten } from "~/server/returns/handwritten.server";
import { recordIdCheck } from "~/server/returns/id-checks.server";
import { belongsToCase, returnSection } from "~/server/returns/return-section.server";
import { cancelSignatureRequest, requestSignature } from "~/server/returns/signature-requests.server";
import { ensureSignedAuthorization } from "~/server/returns/signed-copy.server";
import { SignedPdfError } from "~/server/returns/signed-pdf.server";
import { declareWithinTolerance } from "~/server/returns/tolerance.server";
import { uploadReturnVersion } from "~/server/returns/versions.server";

// The case's return (/admin/clients/:clientId/:year/return): the draft's versions and the
// client's reviews, the identity checks, the signature request, the e-file history and the
// final copies. Every form posts here with its `intent` (those with a file as multipart, read as
// a stream like the Documents section's uploads); a change redirects back with `?done=`, a
// refusal answers 400 with its message and changes nothing.

export function headers() {
  return NO_STORE;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { staff, client, taxYear } = await caseOfRoute({ params, context });
  const today = newYorkDay();
  const ref = { clientId: client.id, taxYear };
  const [section, letterWaits] = await Promise.all([returnSection(staff, ref, today), draftWaitsForLetter(ref)]);
  const done = returnDoneMessage(new URL(request.url).searchParams.get("done"));
  return data({ section, letterWaits, done, today }, { headers: NO_STORE });
}

type Fields = Map<string, string[]>;

/** The file inputs of each form. */
const FILE_FIELDS: Record<ReturnIntent, readonly string[]> = {
  "upload-version": ["file"],
  "request-signature": ["formFile"],
  "cancel-request": [],
  "release-final": ["filedReturnFile", "signedAuthorizationFile"],
  "id-check": [],
  "accept-scan": [],
  "return-scan": [],
  "make-signed-copy": [],
  "declare-tolerance": [],
  transmit: [],
  accepted: [],
  rejected: [],
};
const one = (fields: Fields, name: string) => fields.get(name)?.[0] ?? "";

function refuse(intent: ReturnIntent | "unknown", message: string, status = 400, values?: Record<string, string>) {
  return data<ReturnActionResult>({ intent, ok: false, message, ...(values ? { values } : {}) }, { status, headers: NO_STORE });
}

/** The form's fields and files: a multipart body read as a stream (each file checked and stored as it arrives), or a plain form. */
async function readBody(request: Request, room: number): Promise<{ ok: true; fields: Fields; files: Map<string, ReceivedFile> } | { ok: false; message: string; status: number }> {
  const files = new Map<string, ReceivedFile>();
  const type = request.headers.get("content-type") ?? "";
  if (/^multipart\/form-data\s*;/i.test(type)) {
    const roomLeft = { left: room };
    const form = await readMultipart(
      request,
      { maxRequestBytes: MAX_UPLOAD_REQUEST_BYTES, maxFileBytes: MAX_UPLOAD_BYTES, maxFieldBytes: FORM_BODY_MAX_BYTES },
      async (file) => {
        // A file input left empty is sent as a nameless, empty part; a field takes one file.
        if (file.name === "" || files.has(file.field)) return;
        files.set(file.field, await receiveUpload(file.name, file.chunks, roomLeft));
      },
    );
    if (!form.ok) {
      await discardReceived([...files.values()]);
      return form.problem === "too-large"
        ? { ok: false, message: RETURN_SECTION_MESSAGES.tooLarge, status: 413 }
        : { ok: false, message: RETURN_SECTION_MESSAGES.unreadable, status: 400 };
    }
    return { ok: true, fields: form.fields, files };
  }
  try {
    const form = await request.formData();
    const fields: Fields = new Map();
    for (const [name, value] of form) if (typeof value === "string") fields.set(name, [...(fields.get(name) ?? []), value]);
    return { ok: true, fields, files };
  } catch {
    return { ok: false, message: RETURN_SECTION_MESSAGES.unreadable, status: 400 };
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { staff, client, taxYear } = await caseOfRoute({ params, context });
  const ref = { clientId: client.id, taxYear };
  const ip = context.clientIp;
  const body = await readBody(request, await caseRoom(ref.clientId, ref.taxYear));
  if (!body.ok) return refuse("unknown", body.message, body.status);
  const { fields, files } = body;
  const intent = one(fields, "intent");
  if (!isReturnIntent(intent) || (!RETURN_FILE_INTENTS.has(intent) && files.size > 0)) {
    await discardReceived([...files.values()]);
    return refuse("unknown", RETURN_SECTION_MESSAGES.unknown);
  }
  // A file under a name the form does not have is not kept.
  for (const [field, received] of files)
    if (!FILE_FIELDS[intent].includes(field)) {
      await discardReceived([received]);
      files.delete(field);
    }
  const received = [...files.values()];
  // PostgreSQL cannot store a NUL, and no person types one.
  if ([...fields.values()].flat().some((v) => v.includes("\u0000"))) {
    await discardReceived(received);
    return refuse(intent, RETURN_SECTION_MESSAGES.controlCharacters);
  }
  const done = (key: ReturnDone) => redirect(`${caseSectionPath(ref.clientId, taxYear, "return")}?done=${key}`, { headers: NO_STORE });
  const file = (name: string) => files.get(name);

  switch (intent) {
    case "upload-version": {
      const values = { form: one(fields, "form"), note: one(fields, "note"), formDiffers: one(fields, "formDiffers") };
      const draft = file("file");
      if (!draft) return refuse(intent, RETURN_SECTION_MESSAGES.noFile, 400, values);
      const uploaded = await uploadReturnVersion(staff, ref, { form: values.form, note: values.note, file: draft, formDiffers: values.formDiffers === "yes" }, ip);
      if (!uploaded.ok) return refuse(intent, uploaded.error, 400, values);
      return done(uploaded.voidedRequests > 0 ? "version-uploaded-voided" : "version-uploaded");
    }

    case "id-check": {
      const values = {
        signer: one(fields, "signer"),
        documentType: one(fields, "documentType"),
        issuingCountry: one(fields, "issuingCountry"),
        expiresOn: one(fields, "expiresOn"),
        numberLast4: one(fields, "numberLast4"),
        how: one(fields, "how"),
      };
      const signer = values.signer === "spouse" ? "spouse" : "taxpayer";
      const checked = await recordIdCheck(staff, ref, signer, values, ip);
      if (!checked.ok) return refuse(intent, checked.error, 400, values);
      return done("id-checked");
    }

    case "request-signature": {
      const values = { versionId: one(fields, "versionId"), jointReturn: one(fields, "jointReturn"), spouseName: one(fields, "spouseName"), spouseEmail: one(fields, "spouseEmail") };
      const formFile = file("formFile");
      if (!(await belongsToCase("version", values.versionId, ref))) {
        await discardReceived(received);
        return refuse(intent, RETURN_SECTION_MESSAGES.noSuchVersion, 400, values);
      }
      // Without a file, the form of the version's cancelled request is sent again (requestSignature).
      const jointReturn = values.jointReturn === "on" || values.jointReturn === "yes";
      const requested = await requestSignature(
        staff,
        values.versionId,
        { formFile: formFile ?? null, jointReturn, ...(jointReturn ? { spouse: { name: values.spouseName, email: values.spouseEmail } } : {}) },
        ip,
      );
      if (!requested.ok) return refuse(intent, requested.error, 400, values);
      return done("signature-requested");
    }

    case "cancel-request": {
      const values = { requestId: one(fields, "requestId"), reason: one(fields, "reason") };
      if (!(await belongsToCase("request", values.requestId, ref))) return refuse(intent, RETURN_SECTION_MESSAGES.noSuchRequest, 400, values);
      const cancelled = await cancelSignatureRequest(staff, values.requestId, values.reason, ip);
      if (!cancelled.ok) return refuse(intent, cancelled.error, 400, values);
      return done("request-cancelled");
    }

    case "accept-scan":
    case "return-scan": {
      const uploadId = one(fields, "uploadId");
      if (!(await belongsToCase("scan", uploadId, ref))) return refuse(intent, RETURN_SECTION_MESSAGES.noSuchScan, 400, { uploadId });
      if (intent === "accept-scan") {
        const accepted = await acceptHandwritten(staff, uploadId, ip);
        if (!accepted.ok) return refuse(intent, accepted.error, 400, { uploadId });
        return done("scan-accepted");
      }
      const reason = one(fields, "reason");
      const returned = await returnHandwritten(staff, uploadId, reason, ip);
      if (!returned.ok) return refuse(intent, returned.error, 400, { uploadId, reason });
      return done("scan-returned");
    }

    case "make-signed-copy": {
      const requestId = one(fields, "requestId");
      if (!(await belongsToCase("request", requestId, ref))) return refuse(intent, RETURN_SECTION_MESSAGES.noSuchRequest);
      try {
        const copy = await ensureSignedAuthorization(requestId);
        if (!copy) return refuse(intent, RETURN_SECTION_MESSAGES.notAuthorised);
      } catch (error) {
        if (error instanceof SignedPdfError) return refuse(intent, error.message);
        throw error;
      }
      return done("signed-copy-made");
    }

    case "declare-tolerance": {
      const values = {
        versionId: one(fields, "versionId"),
        incomeOrAgi: one(fields, "incomeOrAgi"),
        tax: one(fields, "tax"),
        withholding: one(fields, "withholding"),
        refundOrOwed: one(fields, "refundOrOwed"),
      };
      if (!(await belongsToCase("version", values.versionId, ref))) return refuse(intent, RETURN_SECTION_MESSAGES.noSuchVersion, 400, values);
      const parsed = toleranceFormSchema.safeParse(values);
      if (!parsed.success) return refuse(intent, parsed.error.issues[0]?.message ?? RETURN_SECTION_MESSAGES.unreadable, 400, values);
      const declared = await declareWithinTolerance(staff, values.versionId, parsed.data, ip);
      if (!declared.ok) return refuse(intent, declared.error, 400, values);
      return done("tolerance-declared");
    }

    case "transmit": {
      const values = { date: one(fields, "date"), submissionId: one(fields, "submissionId"), jurisdiction: one(fields, "jurisdiction") };
      const sent = await recordTransmission(staff, ref, values, ip);
      if (!sent.ok) return refuse(intent, sent.error, 400, values);
      return done("transmitted");
    }

    case "accepted":
    case "rejected": {
      const transmissionId = one(fields, "transmissionId");
      const date = one(fields, "date");
      if (!(await belongsToCase("transmission", transmissionId, ref))) return refuse(intent, RETURN_SECTION_MESSAGES.noSuchTransmission, 400, { transmissionId, date });
      if (intent === "accepted") {
        const accepted = await recordAccepted(staff, transmissionId, date, ip);
        if (!accepted.ok) return refuse(intent, accepted.error, 400, { transmissionId, date });
        return done("accepted");
      }
      const otherCodes = one(fields, "otherCodes");
      const note = one(fields, "note");
      const codes = [...(fields.get("codes") ?? []), ...otherCodes.split(/[\s,]+/)];
      const rejected = await recordRejected(staff, transmissionId, { date, codes, note }, ip);
      if (!rejected.ok) return refuse(intent, rejected.error, 400, { transmissionId, date, otherCodes, note, codes: (fields.get("codes") ?? []).join(",") });
      return done("rejected");
    }

    case "release-final": {
      const filedChoice = one(fields, "filedReturn");
      const signedChoice = one(fields, "signedAuthorization");
      const values = { filedReturn: filedChoice, signedAuthorization: signedChoice };
      const section = await returnSection(staff, ref);
      const refuseAll = async (message: string) => {
        await discardReceived(received);
        return refuse(intent, message, 400, values);
      };
      if (!section.accepted) return refuseAll(RETURN_SECTION_MESSAGES.notAccepted);
      const filedFile = file("filedReturnFile");
      const signedFile = file("signedAuthorizationFile");
      const current = section.versions[0];
      const signedCopy = section.requests.find((r) => !r.void && r.signedCopy)?.signedCopy;
      let filedReturn: FinalCopySource;
      if (filedChoice === "upload") {
        if (!filedFile) return refuseAll(RETURN_SECTION_MESSAGES.noFile);
        filedReturn = { file: filedFile };
      } else {
        if (!current) return refuseAll(RETURN_SECTION_MESSAGES.noVersion);
        // The version the form showed as current: refused as superseded when a newer one came since.
        filedReturn = { versionId: one(fields, "filedVersionId") || current.id };
      }
      let signedAuthorization: FinalCopySource;
      if (signedChoice === "upload") {
        if (!signedFile) return refuseAll(RETURN_SECTION_MESSAGES.noFile);
        signedAuthorization = { file: signedFile };
      } else {
        if (!signedCopy) return refuseAll(RETURN_SECTION_MESSAGES.noSignedCopy);
        signedAuthorization = { documentId: signedCopy.documentId };
      }
      // A file sent with a choice that does not use it is not kept.
      await discardReceived([filedChoice === "upload" ? null : filedFile, signedChoice === "upload" ? null : signedFile].filter((f): f is ReceivedFile => f !== null && f !== undefined));
      const released = await releaseFinalCopies(staff, ref, { filedReturn, signedAuthorization }, ip);
      if (!released.ok) return refuse(intent, released.error, 400, values);
      return done("released");
    }
  }
}

export default function CaseReturn() {
  const { section, letterWaits, done, today } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const frame = useCaseFrame();
  return (
    <ReturnSection
      key={`${frame.client.id}/${frame.taxYear}`}
      clientId={frame.client.id}
      taxYear={frame.taxYear}
      section={section}
      letterWaits={letterWaits}
      done={done}
      today={today}
      result={result}
    />
  );
}
