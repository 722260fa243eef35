import {
  ArrowLeft,
  CheckCircle2,
  CircleDashed,
  FilePen,
  FolderOpen,
  Lock,
  Mail,
  Milestone,
} from "lucide-react";
import { data, Link, useActionData, useLoaderData } from "react-router";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/filing";
import { CaseDocuments } from "~/components/portal/case-documents";
import { CaseRequests } from "~/components/portal/case-requests";
import { CaseStageBadge, StageExplainer, StageTimeline } from "~/components/portal/case-stage";
import { DocumentUploader } from "~/components/portal/document-uploader";
import { MessagesPanel } from "~/components/portal/messages-panel";
import { taxpayerFormPath } from "~/components/portal/filing-card";
import { FilingPanel } from "~/components/portal/filing-panel";
import { StageNoticesForm } from "~/components/portal/stage-notices-form";
import { ButtonLink, buttonClass } from "~/components/ui/button";
import { Container } from "~/components/ui/container";
import { clientNextStep } from "~/domain/portal";
import type { ClientNextStep, FilingPageData, FilingPageResult } from "~/domain/portal";
import { CASE_MESSAGES, FilingPageForm } from "~/domain/portal-forms";
import { clientMessagesPath } from "~/domain/messages";
import { clientRequestsPath } from "~/domain/requests";
import type { RequestResult } from "~/domain/requests";
import { parseTaxYear } from "~/domain/tax-year";
import { logError } from "~/log";
import { seo } from "~/seo";
import { getOwnCase, setStageNotices, stageNoticesOn } from "~/server/cases/cases.server";
import { acceptedItemsOf, listOwnDocuments } from "~/server/documents/listing.server";
import { removeDocuments } from "~/server/documents/changes.server";
import { clientUnreadByYear } from "~/server/messages/unread.server";
import { parseForm } from "~/server/http/form.server";
import { listOwnRequests } from "~/server/requests/requests.server";
import { NO_STORE, userContext } from "~/server/auth/session.server";

export const meta: Route.MetaFunction = (args) => {
  const year = parseTaxYear(args.params.year);
  return seo(args, {
    title: year === null ? "Tax filing" : `${year} tax filing`,
    description: "Where your tax filing stands, and its documents.",
    noindex: true,
  });
};

export function headers() {
  return NO_STORE;
}

/**
 * An answer to a requested item refused because the item changed meanwhile (staff received or
 * returned it) is a 409, after which React Router would keep the page as it was: the page is
 * read again, so the item shows where it stands now.
 */
export function shouldRevalidate({ formAction, actionResult, defaultShouldRevalidate, currentParams }: ShouldRevalidateFunctionArgs) {
  if (defaultShouldRevalidate) return true;
  const year = parseTaxYear(currentParams.year);
  const answer = actionResult as Partial<RequestResult> | undefined;
  return year !== null && formAction === clientRequestsPath(year) && answer?.code === "item-changed";
}

/** The same 404 for a year that is not a year, and for a year the acting user has no case for. */
function notFound(): never {
  throw data(null, { status: 404, headers: NO_STORE });
}

/** The acting user's own case of the URL's year, or the 404 page. */
async function ownCase(userId: string, rawYear: string | undefined) {
  const taxYear = parseTaxYear(rawYear);
  const theCase = taxYear === null ? null : await getOwnCase(userId, taxYear);
  if (!theCase) notFound();
  return theCase;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const theCase = await ownCase(user.id, params.year);
  const [documents, stageNotices, requests] = await Promise.all([
    listOwnDocuments(user.id, theCase.taxYear),
    stageNoticesOn(user.id),
    listOwnRequests(user.id, theCase.taxYear),
  ]);
  // The firm's messages of this year the client has not read (the Messages panel).
  const unreadMessages = (await clientUnreadByYear(user.id, context)).get(theCase.taxYear) ?? 0;
  return data<FilingPageData & { unreadMessages: number }>(
    {
      unreadMessages,
      taxYear: theCase.taxYear,
      stage: theCase.stage,
      flags: theCase.flags,
      infoSent: theCase.filing !== null,
      documentsOpen: theCase.documentsOpen,
      documents,
      stageNotices,
      requests,
    },
    { headers: NO_STORE },
  );
}

/** Remove the client's own uploads (while documents are open), or change the stage e-mail setting. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = context.get(userContext);
  const theCase = await ownCase(user.id, params.year);
  const answer = (result: FilingPageResult, status = 200) =>
    data<FilingPageResult>(result, { status, headers: NO_STORE });
  const parsed = await parseForm(request, FilingPageForm);
  if (!parsed.ok) return answer({ intent: "form", ok: false, message: CASE_MESSAGES.badForm }, 400);
  const form = parsed.values;

  if (form.intent === "stage-notices") {
    try {
      await setStageNotices(user, form.stageNotices, context.clientIp);
    } catch (error) {
      logError("portal", "could not save the stage e-mail setting", error);
      return answer({ intent: "stage-notices", ok: false, message: CASE_MESSAGES.noticesFailed }, 500);
    }
    return answer({
      intent: "stage-notices",
      ok: true,
      message: form.stageNotices ? CASE_MESSAGES.noticesOn : CASE_MESSAGES.noticesOff,
    });
  }

  if (!theCase.documentsOpen)
    return answer(
      { intent: "remove", ok: false, message: CASE_MESSAGES.documentsClosed(theCase.taxYear) },
      409,
    );
  if (form.documentIds.usable.length === 0)
    return answer({ intent: "remove", ok: false, message: CASE_MESSAGES.nothingRemoved }, 400);
  let removed: number;
  try {
    // Only the client's own uploads of this year, and only while DOCUMENTS is not complete.
    removed = await removeDocuments(
      user,
      { clientId: user.id, taxYear: theCase.taxYear, documentIds: form.documentIds.usable },
      context.clientIp,
    );
  } catch (error) {
    logError("portal", "could not remove a document", error);
    return answer({ intent: "remove", ok: false, message: CASE_MESSAGES.removeFailed }, 500);
  }
  // Files of an item staff accepted are never removed by the client: the page says why.
  const kept = removed < form.documentIds.usable.length ? await acceptedItemsOf(user.id, theCase.taxYear, form.documentIds.usable) : [];
  if (removed === 0)
    return kept.length > 0
      ? answer({ intent: "remove", ok: false, message: CASE_MESSAGES.acceptedStays(kept) }, 409)
      : answer({ intent: "remove", ok: false, message: CASE_MESSAGES.nothingRemoved }, 403);
  const removedMessage = CASE_MESSAGES.removed(removed);
  return answer({
    intent: "remove",
    ok: true,
    message: kept.length > 0 ? `${removedMessage} ${CASE_MESSAGES.acceptedStays(kept)}` : removedMessage,
  });
}

export default function Filing() {
  const filing = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const { taxYear } = filing;
  const next = clientNextStep(filing, filing.unreadMessages, {
    taxpayerForm: taxpayerFormPath(taxYear),
    messages: clientMessagesPath(taxYear),
  });
  // Finished parts are folded (docs/product/workflow.md#what-the-client-sees): the taxpayer information
  // once sent; the documents once closed, unless the firm shared some for the client to download.
  const infoDone = filing.infoSent ? "Sent. You can check or change it at any time." : null;
  const firmDocuments = filing.documents.filter((doc) => !doc.mine).length;
  const documentsDone =
    !filing.documentsOpen && firmDocuments === 0
      ? `All received: ${filing.documents.length === 1 ? "1 document" : `${filing.documents.length.toLocaleString("en-US")} documents`}.`
      : null;

  const info = (
    <FilingPanel
      key="info"
      id="info-title"
      title="Taxpayer information"
      icon={<FilePen className="size-5" aria-hidden="true" />}
      done={infoDone}
    >
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="flex items-start gap-2 text-ink-soft">
          {filing.infoSent ? (
            <CheckCircle2 className="mt-1 size-4 shrink-0 text-green-700" aria-hidden="true" />
          ) : (
            <CircleDashed className="mt-1 size-4 shrink-0 text-accent-700" aria-hidden="true" />
          )}
          {filing.infoSent
            ? `You sent us your taxpayer information for ${taxYear}. You can check or change it at any time.`
            : `You have not sent us your taxpayer information for ${taxYear} yet.`}
        </p>
        <ButtonLink
          to={taxpayerFormPath(taxYear)}
          variant={filing.infoSent ? "secondary" : "primary"}
          className="min-h-11 shrink-0"
        >
          {filing.infoSent ? `Your ${taxYear} taxpayer information` : `Fill in the ${taxYear} form`}
        </ButtonLink>
      </div>
    </FilingPanel>
  );

  const documents = (
    <FilingPanel
      key="documents"
      id="documents-title"
      anchor="documents"
      title="Documents"
      icon={<FolderOpen className="size-5" aria-hidden="true" />}
      done={documentsDone}
      open={posted?.intent === "remove"}
    >
      <p className="mb-4 text-ink-soft">
        Your documents for {taxYear}: the ones you uploaded, and the ones we shared with you.
      </p>
      {filing.documentsOpen ? null : (
        <p className="mb-4 flex items-start gap-2 rounded-lg border border-line bg-surface px-4 py-3 text-sm text-ink-soft">
          <Lock className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>
            {CASE_MESSAGES.documentsClosed(taxYear)}{" "}
            <Link to="/contact" className="font-semibold text-primary-700 underline">
              Contact us
            </Link>
          </span>
        </p>
      )}
      <CaseDocuments
        taxYear={taxYear}
        documents={filing.documents}
        documentsOpen={filing.documentsOpen}
        postedResult={posted}
      />
      {filing.documentsOpen ? (
        <div className="mt-4">
          <DocumentUploader taxYear={taxYear} present={filing.documents.map((doc) => doc.id)} />
        </div>
      ) : null}
    </FilingPanel>
  );

  return (
    <main id="main" className="bg-surface py-10 sm:py-14">
      <Container className="max-w-5xl">
        <Link
          to="/my-tax-filing"
          className="inline-flex min-h-11 items-center gap-1.5 text-sm font-semibold text-primary-700 hover:underline sm:min-h-0"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          All your filings
        </Link>
        <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-3xl font-bold tracking-tight">{`${taxYear} tax filing`}</h1>
          <CaseStageBadge stage={filing.stage} />
        </div>

        <div className="mt-8 space-y-6">
          <NextStep step={next} />

          {/* What is still open first; the finished parts after, folded. */}
          {infoDone ? null : info}
          <CaseRequests key={taxYear} taxYear={taxYear} items={filing.requests} documentsOpen={filing.documentsOpen} />
          {documentsDone ? null : documents}

          <MessagesPanel taxYear={taxYear} unread={filing.unreadMessages} />

          <FilingPanel
            id="stage-title"
            title="Where your filing stands"
            icon={<Milestone className="size-5" aria-hidden="true" />}
          >
            <StageTimeline stage={filing.stage} flags={filing.flags} />
            <div className="mt-5">
              <StageExplainer stage={filing.stage} flags={filing.flags} />
            </div>
          </FilingPanel>

          {infoDone ? info : null}
          {documentsDone ? documents : null}

          <FilingPanel
            id="notices-title"
            title="E-mail updates"
            icon={<Mail className="size-5" aria-hidden="true" />}
          >
            <StageNoticesForm taxYear={taxYear} on={filing.stageNotices} postedResult={posted} />
          </FilingPanel>
        </div>
      </Container>
    </main>
  );
}

/** What the client should do now: the first thing on the page, with the way to do it. */
function NextStep({ step }: { step: ClientNextStep }) {
  const action = step.action;
  return (
    <section
      aria-labelledby="next-step-title"
      className="rounded-[var(--radius-card)] border-2 border-primary-600 bg-white p-5 shadow-card sm:p-6"
    >
      <p id="next-step-title" className="text-sm font-semibold tracking-wide text-primary-700 uppercase">
        Your next step
      </p>
      <div className="mt-1 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0">
          <h2 className="text-xl font-semibold tracking-tight text-ink">{step.title}</h2>
          <p className="mt-1 text-ink-soft">{step.text}</p>
        </div>
        {action ? (
          action.to.startsWith("#") ? (
            <a href={action.to} className={buttonClass("primary", "md", "min-h-11 shrink-0")}>
              {action.label}
            </a>
          ) : (
            <ButtonLink to={action.to} className="min-h-11 shrink-0">
              {action.label}
            </ButtonLink>
          )
        ) : null}
      </div>
    </section>
  );
}
