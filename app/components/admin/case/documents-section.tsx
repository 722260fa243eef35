import { CircleDashed, Download, FileText, FolderOpen, Share2, Undo2, UserRound } from "lucide-react";
import { useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Button, buttonClass } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { LocalTime } from "~/components/ui/local-time";
import { SignedLetters } from "~/components/engagement/signed-letters";
import { caseHref, documentsHref } from "~/domain/admin-links";
import type { StaffDocumentView } from "~/domain/documents";
import type { SignedLetter } from "~/domain/engagement";
import { staffLetterPdfHref } from "~/domain/engagement";
import { DOCUMENT_CATEGORIES, formatKb } from "~/domain/documents";
import { plural } from "../format";
import { CaseSection } from "./case-section";

export type ShareResult = { intent: "share" | "unshare"; ok: boolean; message: string };

/** The Document Management modal of this case, returning to the list the case page came from. */
/**
 * The case's documents by category: who uploaded each, whether the client sees it, and the
 * client's uploads that are new to this staff member. Staff documents are shared with the client
 * (who is e-mailed) or taken back here; uploading and removing happen in Document Management.
 */
export function DocumentsSection({
  clientId,
  taxYear,
  back,
  documents,
  signedLetters,
  result,
}: {
  clientId: string;
  taxYear: number;
  back: string;
  documents: readonly StaffDocumentView[];
  /** The case's accepted engagement letters, whose signed PDFs are documents of the case. */
  signedLetters: readonly SignedLetter[];
  result?: ShareResult;
}) {
  // Opening the page marks the client's uploads as seen, so the data of a later load (after a
  // share, say) no longer calls them new: the ones new on arrival stay marked during this visit.
  const [newOnArrival] = useState(() => new Set(documents.filter((d) => d.isNew).map((d) => d.id)));
  const isNew = (doc: StaffDocumentView) => doc.isNew || newOnArrival.has(doc.id);
  const newCount = documents.filter(isNew).length;
  const groups = DOCUMENT_CATEGORIES.map((c) => ({
    ...c,
    documents: documents.filter((d) => d.category === c.key),
  })).filter((g) => g.documents.length > 0);

  return (
    <CaseSection
      id="documents"
      title="Documents"
      icon={<FolderOpen className="size-5" aria-hidden="true" />}
      lead={
        documents.length === 0
          ? signedLetters.length > 0
            ? "The signed engagement letter; no other documents yet."
            : "No documents yet."
          : `${plural(documents.length, "document", "documents")}${newCount > 0 ? `, ${newCount} new since you last opened this case's documents` : ""}.`
      }
      actions={
        <Link to={documentsHref(clientId, taxYear, caseHref(clientId, taxYear, back, "documents"))} className={buttonClass("secondary", "sm", "min-h-11 sm:min-h-0")}>
          <FolderOpen className="size-4" aria-hidden="true" />
          Manage documents
        </Link>
      }
    >
      {result ? (
        <div className="mb-4">
          <Alert tone={result.ok ? "success" : "error"}>{result.message}</Alert>
        </div>
      ) : null}
      <SignedLetters letters={signedLetters} hrefOf={(id) => staffLetterPdfHref(clientId, id)} />
      <p className="mb-4 text-sm text-ink-soft">
        Documents you upload reach the client only once you share them, for example a draft to review or the
        final copies.
      </p>
      {groups.length === 0 ? (
        <p className="text-ink-soft">
          Neither the client nor the firm has uploaded a document for this year.
        </p>
      ) : (
        <div className="space-y-5">
          {groups.map((group) => (
            <section key={group.key} aria-labelledby={`documents-${group.key}`}>
              <h3
                id={`documents-${group.key}`}
                className="text-sm font-semibold tracking-wide text-ink-soft uppercase"
              >
                {group.label}
              </h3>
              <ul className="mt-2 divide-y divide-line rounded-xl border border-line">
                {group.documents.map((doc) => (
                  <DocumentRow key={doc.id} doc={doc} isNew={isNew(doc)} />
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </CaseSection>
  );
}

function DocumentRow({ doc, isNew }: { doc: StaffDocumentView; isNew: boolean }) {
  const navigation = useNavigation();
  const busy =
    navigation.state !== "idle" &&
    (navigation.formData?.get("intent") === "share" || navigation.formData?.get("intent") === "unshare") &&
    navigation.formData.getAll("documentIds").includes(doc.id);
  const fromClient = doc.uploadedBy?.client ?? false;
  const uploader = doc.uploadedBy
    ? `Uploaded by ${doc.uploadedBy.name} (${doc.uploadedBy.client ? "client" : "staff"})`
    : "Uploaded by a former staff member";
  const shared = doc.sharedAt !== null;

  return (
    <li
      className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center sm:justify-between"
      data-document-id={doc.id}
    >
      <div className="flex min-w-0 items-start gap-2.5">
        <FileText className="mt-0.5 size-5 shrink-0 text-primary-600" aria-hidden="true" />
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-medium break-all text-ink">{doc.name}</span>
            {isNew ? (
              <span className="inline-flex items-center rounded-full border border-accent-500 bg-accent-50 px-2 py-0.5 text-xs font-semibold text-accent-700">
                New<span className="sr-only">: uploaded since you last opened this case's documents</span>
              </span>
            ) : null}
          </p>
          <p className="mt-0.5 text-sm text-ink-muted">
            {formatKb(doc.size)} · <LocalTime iso={doc.uploadedAt} /> · {uploader}
          </p>
          <p className="mt-1 text-sm font-medium">
            {fromClient ? (
              <span className="inline-flex items-center gap-1.5 text-ink-soft">
                <UserRound className="size-4" aria-hidden="true" />
                The client&apos;s own upload
              </span>
            ) : shared ? (
              <span className="inline-flex items-center gap-1.5 text-green-800">
                <Share2 className="size-4" aria-hidden="true" />
                Shared with client
              </span>
            ) : (
              <span className="inline-flex items-center gap-1.5 text-ink-soft">
                <CircleDashed className="size-4" aria-hidden="true" />
                Not shared
              </span>
            )}
          </p>
        </div>
      </div>
      <div className="flex shrink-0 flex-wrap items-center gap-2">
        <a
          href={`/documents/${doc.id}`}
          download={doc.name}
          className={buttonClass("ghost", "sm", "min-h-11 sm:min-h-0")}
          aria-label={`Download ${doc.name}`}
        >
          <Download className="size-4" aria-hidden="true" />
          Download
        </a>
        {fromClient ? null : (
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value={shared ? "unshare" : "share"} />
            <input type="hidden" name="documentIds" value={doc.id} />
            <Button
              type="submit"
              size="sm"
              className="min-h-11 sm:min-h-0"
              variant={shared ? "secondary" : "primary"}
              disabled={busy}
              busy={busy}
              aria-busy={busy}
              aria-label={shared ? `Stop sharing ${doc.name}` : `Share ${doc.name} with the client`}
            >
              {busy ? null : shared ? (
                <Undo2 className="size-4" aria-hidden="true" />
              ) : (
                <Share2 className="size-4" aria-hidden="true" />
              )}
              {shared ? "Stop sharing" : "Share"}
            </Button>
          </Form>
        )}
      </div>
    </li>
  );
}
