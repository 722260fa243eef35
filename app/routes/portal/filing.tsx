import {
  ArrowLeft,
  CheckCircle2,
  CircleDashed,
  FilePen,
  FileSignature,
  FileText,
  FolderOpen,
  Lock,
  Mail,
  Milestone,
} from "lucide-react";
import { data, Link, useActionData, useLoaderData } from "react-router";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/filing";
import { EngagementPanel } from "~/components/engagement/filing-panel";
import type { FilingLetter } from "~/components/engagement/filing-panel";
import { SignedLetters } from "~/components/engagement/signed-letters";
import { clientLetterPdfHref } from "~/domain/engagement";
import type { SignedLetter } from "~/domain/engagement";
import { CaseDocuments } from "~/components/portal/case-documents";
import { CaseRequests } from "~/components/portal/case-requests";
import { CaseStageBadge, StageExplainer, StageTimeline } from "~/components/portal/case-stage";
import { DocumentUploader } from "~/components/portal/document-uploader";
import { FeePanel } from "~/components/portal/fee-panel";
import { MessagesPanel } from "~/components/portal/messages-panel";
import { ResidencyPanel } from "~/components/portal/residency-panel";
import { taxpayerFormPath } from "~/components/portal/filing-card";
import { FilingPanel } from "~/components/portal/filing-panel";
import { StageNoticesForm } from "~/components/portal/stage-notices-form";
import { DraftReview, ReturnHistory, SigningForms } from "~/components/portal/return-forms";
import type { DraftView } from "~/components/portal/return-forms";
import type { SigningView } from "~/domain/return-client";
import { ButtonLink, buttonClass } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { Container } from "~/components/ui/container";
import { checkoutReturnOf, feeActionPath, feeResultOf, totalDue } from "~/domain/fee-client";
import type { CheckoutReturn, ClientFee, FeeFormResult } from "~/domain/fee-client";
import { FEE_TEXTS } from "~/domain/fees";
import { clientNextStep } from "~/domain/portal";
import type { ClientNextStep, FilingPageData, FilingPageResult } from "~/domain/portal";
import { CASE_MESSAGES, FilingPageForm } from "~/domain/portal-forms";
import { clientMessagesPath } from "~/domain/messages";
import { clientRequestsPath } from "~/domain/requests";
import type { RequestResult } from "~/domain/requests";
import { parseTaxYear } from "~/domain/tax-year";
import { newYorkDay } from "~/domain/business-days";
import { APPROVAL_TEXTS, APPROVAL_VERSION, approvalText } from "~/domain/e-signature";
import { clientReturnHistory, firmDate, RETURN_CLIENT_MESSAGES, returnTextContext, signedFormResult } from "~/domain/return-client";
import type { ReturnFormResult, ReturnHistoryLine } from "~/domain/return-client";
import { logError } from "~/log";
import { seo } from "~/seo";
import { getOwnCase, setStageNotices } from "~/server/cases/cases.server";
import { finalCopiesLocked } from "~/server/fees/final-copies-gate.server";
import { acceptedItemsOf, listOwnDocuments } from "~/server/documents/listing.server";
import { checkoutState } from "~/server/fees/checkout.server";
import { clientFee } from "~/server/fees/client-view.server";
import { removeDocuments } from "~/server/documents/changes.server";
import { clientCaseStates } from "~/server/cases/client-case-states.server";
import { CaseViewCache } from "~/server/cases/view-cache.server";
import { caseLetters, signedLettersOf } from "~/server/engagement/letters.server";
import { parseForm } from "~/server/http/form.server";
import type { z } from "~/domain/zod";
import { RETURN_FILE_NAMES, RETURN_MESSAGES } from "~/domain/returns";
import { listOwnRequests } from "~/server/requests/requests.server";
import { NO_STORE, userContext } from "~/server/auth/session.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { approveReturnVersion, requestReturnChanges } from "~/server/returns/reviews.server";
import { sendCode, signWithCode } from "~/server/returns/signer-forms.server";
import type { SignerAnswer } from "~/server/returns/signer-forms.server";
import { waitingRequestOf, waitingSignerView } from "~/server/returns/signer-view.server";
import { caseReturnTimeline } from "~/server/returns/timeline.server";
import { currentReturnVersion } from "~/server/returns/versions.server";

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

type ParsedFiling = z.output<typeof FilingPageForm>;

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

/** What the filing page shows of the case, read from the database (kept by `filingViews` while the case is unchanged). */
type FilingView = FilingPageData & ClientReturn & { fee: ClientFee; engagement: FilingLetter; signedLetters: SignedLetter[] };

/**
 * The filing pages read, kept by case while nothing the page shows changes (the case's view
 * version, the firm settings' and New York's day: app/server/cases/view-cache.server.ts): the
 * page then answers from one query, the one every signed-in page makes.
 */
const filingViews = new CaseViewCache<FilingView>(2_000);

async function readFilingView(user: SessionUser, taxYear: number): Promise<FilingView> {
  const theCase = await getOwnCase(user.id, taxYear);
  if (!theCase) notFound();
  const [documents, requests] = await Promise.all([listOwnDocuments(user.id, taxYear), listOwnRequests(user.id, taxYear)]);
  const returnPart = await clientReturn(user, taxYear);
  // The fee: the invoices sent.
  const fee = await clientFee(user.id, taxYear);
  const letters = await caseLetters({ clientId: user.id, taxYear });
  const letter = letters[0];
  return {
    ...returnPart,
    fee,
    engagement: letter ? { state: letter.answer?.decision ?? "sent", at: letter.answer?.at ?? letter.sentAt } : null,
    signedLetters: signedLettersOf(letters),
    taxYear,
    stage: theCase.stage,
    flags: theCase.flags,
    infoSent: theCase.filing !== null,
    documentsOpen: theCase.documentsOpen,
    documents,
    stageNotices: theCase.stageNotices,
    residency: theCase.residency,
    requests,
  };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const taxYear = parseTaxYear(params.year);
  const states = await clientCaseStates(user.id, context);
  const state = taxYear === null ? undefined : states.cases.get(taxYear);
  if (taxYear === null || !state) notFound();
  const view = await filingViews.get(`${user.id}:${taxYear}`, `${state.version}:${states.firmSettings}:${newYorkDay()}`, () =>
    readFilingView(user, taxYear),
  );
  const search = new URL(request.url).searchParams;
  return data<FilingView & { unreadMessages: number; signedForm: ReturnFormResult | null } & FilingFee>(
    {
      ...view,
      // What a fee form answered, and the way back from Stripe's page.
      feeResult: feeResultOf(search.get("fee")),
      checkout: await checkoutReturn(user, search),
      // What the hand-signed form's upload answered (it sends the browser back here).
      signedForm: signedFormResult(search.get("signed-form")),
      // The firm's messages of this year the client has not read (the Messages panel).
      unreadMessages: state.unread,
    },
    { headers: NO_STORE },
  );
}

/** Back from Stripe's page: cancelled, or the payment as Stripe's webhook has told of it so far. */
async function checkoutReturn(user: SessionUser, search: URLSearchParams): Promise<CheckoutReturn | null> {
  const back = checkoutReturnOf(search.get("checkout"));
  if (back !== "done") return back;
  return checkoutState(user, search.get("session_id") ?? "");
}

/** The year's fee on the page (docs/product/fees.md#what-the-client-sees). */
type FilingFee = { fee: ClientFee; feeResult: FeeFormResult | null; checkout: CheckoutReturn | null };

/** The client's side of the return: the draft to review, the form to sign, the return's history. */
type ClientReturn = {
  draft: (DraftView & { declaration: string; declarationVersion: string; fileUrl: string }) | null;
  approvedOn: string | null;
  signing: (SigningView & { formUrl: string }) | null;
  history: ReturnHistoryLine[];
};

async function clientReturn(user: SessionUser, taxYear: number): Promise<ClientReturn> {
  const [version, waiting, events] = await Promise.all([
    currentReturnVersion(user.id, taxYear),
    waitingSignerView(user, taxYear),
    caseReturnTimeline(user, { clientId: user.id, taxYear }),
  ]);
  // Asked only once final copies were released: whether the fee still holds them back.
  const released = (events ?? []).some((e) => e.kind === "final-copies-released");
  const locked = released && (await finalCopiesLocked(user.id, taxYear));
  const history = clientReturnHistory(events ?? [], newYorkDay(new Date()), `/my-tax-filing/${taxYear}#documents`, locked);
  if (!version) return { draft: null, approvedOn: null, signing: null, history };
  const draft =
    version.approvedAt === null
      ? {
          id: version.id,
          number: version.number,
          note: version.note,
          // The name the draft downloads under (stamped DRAFT), not staff's file name.
          fileName: RETURN_FILE_NAMES.draft(version.form, taxYear, version.number),
          approvedAt: null,
          declaration: approvalText(APPROVAL_VERSION, returnTextContext(version.form, taxYear)),
          declarationVersion: APPROVAL_VERSION,
          fileUrl: `/my-tax-filing/${taxYear}/return/${version.id}`,
        }
      : null;
  const signing = waiting && { ...waiting.signing, formUrl: `/my-tax-filing/${taxYear}/signing-form` };
  return { draft, approvedOn: version.approvedAt === null ? null : firmDate(version.approvedAt), signing, history };
}

/** The return's forms of the filing page (review, sign), for the client's own case of `taxYear`. */
async function returnAction(
  user: SessionUser,
  taxYear: number,
  form: Extract<ParsedFiling, { intent: ReturnFormResult["intent"] }>,
  request: Request,
  ip: string,
): Promise<SignerAnswer> {
  const refuse = (intent: ReturnFormResult["intent"], message: string, status = 400): SignerAnswer => ({ result: { intent, ok: false, message }, status });
  const reviewContext = { ip, userAgent: request.headers.get("user-agent") ?? "" };
  switch (form.intent) {
    case "approve-draft": {
      if (!form.agree) return refuse(form.intent, RETURN_CLIENT_MESSAGES.agreeRequired);
      // Only a declaration the page has given is recorded as agreed to.
      if (!Object.hasOwn(APPROVAL_TEXTS, form.declarationVersion)) return refuse(form.intent, RETURN_CLIENT_MESSAGES.noDraft);
      const approved = await approveReturnVersion(user, form.versionId, { ...reviewContext, declarationVersion: form.declarationVersion });
      return approved.ok ? { result: { intent: form.intent, ok: true, message: RETURN_CLIENT_MESSAGES.approved }, status: 200 } : refuse(form.intent, approved.error, 409);
    }
    case "ask-changes": {
      const asked = await requestReturnChanges(user, form.versionId, form.comment, reviewContext);
      return asked.ok
        ? { result: { intent: form.intent, ok: true, message: RETURN_CLIENT_MESSAGES.changesSent }, status: 200 }
        : refuse(form.intent, asked.error, asked.error === RETURN_MESSAGES.commentRequired || asked.error === RETURN_MESSAGES.commentTooLong ? 400 : 409);
    }
    case "send-code":
    case "sign": {
      const requestId = await waitingRequestOf(user, taxYear);
      if (!requestId) return refuse(form.intent, RETURN_CLIENT_MESSAGES.nothingToSign, 409);
      const access = { client: user, requestId };
      return form.intent === "send-code" ? sendCode(access, ip) : signWithCode(access, form, { ip, userAgent: reviewContext.userAgent });
    }
  }
}

/** Remove the client's own uploads (while documents are open), or change the stage e-mail setting. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = context.get(userContext);
  const theCase = await ownCase(user.id, params.year);
  const answer = (result: FilingPageResult | ReturnFormResult, status = 200) =>
    data<FilingPageResult | ReturnFormResult>(result, { status, headers: NO_STORE });

  const parsed = await parseForm(request, FilingPageForm);
  if (!parsed.ok) return answer({ intent: "form", ok: false, message: CASE_MESSAGES.badForm }, 400);
  const form = parsed.values;

  if (form.intent === "approve-draft" || form.intent === "ask-changes" || form.intent === "send-code" || form.intent === "sign") {
    const done = await returnAction(user, theCase.taxYear, form, request, context.clientIp);
    return answer(done.result, done.status);
  }

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
  const postedAny = useActionData<typeof action>();
  const posted = postedAny && isPageResult(postedAny) ? postedAny : undefined;
  const postedReturn = (postedAny && !isPageResult(postedAny) ? postedAny : undefined) ?? filing.signedForm ?? undefined;
  const { taxYear } = filing;
  const next = returnNextStep(filing) ?? feeNextStep(filing.fee) ?? clientNextStep(filing, filing.unreadMessages, {
    taxpayerForm: taxpayerFormPath(taxYear),
    messages: clientMessagesPath(taxYear),
  });
  const filingPath = `/my-tax-filing/${taxYear}`;
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
      <SignedLetters letters={filing.signedLetters} hrefOf={(id) => clientLetterPdfHref(taxYear, id)} />
      <CaseDocuments
        taxYear={taxYear}
        documents={filing.documents}
        documentsOpen={filing.documentsOpen}
        postedResult={posted}
        besideSignedLetter={filing.signedLetters.length > 0}
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

          <EngagementPanel taxYear={taxYear} letter={filing.engagement} />

          {filing.draft ? (
            <FilingPanel id="review-title" anchor="review" title="Review your draft return" icon={<FileText className="size-5" aria-hidden="true" />}>
              <DraftReview
                action={filingPath}
                fileUrl={filing.draft.fileUrl}
                draft={filing.draft}
                declaration={filing.draft.declaration}
                declarationVersion={filing.draft.declarationVersion}
                posted={postedReturn}
              />
            </FilingPanel>
          ) : filing.approvedOn ? (
            <p className="flex items-start gap-2 rounded-lg border border-line bg-white px-4 py-3 text-ink" role={postedReturn?.intent === "approve-draft" ? "status" : undefined}>
              <CheckCircle2 className="mt-1 size-4 shrink-0 text-green-700" aria-hidden="true" />
              {`You approved the draft on ${filing.approvedOn}.`}
            </p>
          ) : null}
          {filing.signing ? (
            <FilingPanel
              id="sign-title"
              anchor="sign"
              title={filing.signing.waiting ? `Your signed Form ${filing.signing.authorizationForm}` : `Sign your e-file authorisation (Form ${filing.signing.authorizationForm})`}
              icon={<FileSignature className="size-5" aria-hidden="true" />}
            >
              <SigningForms action={filingPath} uploadUrl={`${filingPath}/signed-form`} formUrl={filing.signing.formUrl} signing={filing.signing} posted={postedReturn} />
            </FilingPanel>
          ) : postedReturn?.ok && (postedReturn.intent === "sign" || postedReturn.intent === "upload-signed") ? (
            <Alert tone="success">{postedReturn.message}</Alert>
          ) : null}

          <FeePanel fee={filing.fee} action={feeActionPath(taxYear)} checkout={filing.checkout} posted={filing.feeResult ?? undefined} />

          {/* What is still open first; the finished parts after, folded. */}
          {infoDone ? null : info}
          <CaseRequests key={taxYear} taxYear={taxYear} items={filing.requests} documentsOpen={filing.documentsOpen} />
          {documentsDone ? null : documents}

          <MessagesPanel taxYear={taxYear} unread={filing.unreadMessages} />

          <ResidencyPanel taxYear={taxYear} residency={filing.residency} />

          <FilingPanel
            id="stage-title"
            title="Where your filing stands"
            icon={<Milestone className="size-5" aria-hidden="true" />}
          >
            <StageTimeline stage={filing.stage} flags={filing.flags} />
            {filing.history.length > 0 ? (
              <div className="mt-5">
                <h3 className="mb-3 font-semibold text-ink">Your return</h3>
                <ReturnHistory lines={filing.history} />
              </div>
            ) : null}
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

/** The page's own answers (documents, e-mail setting) as against the return's forms'. */
function isPageResult(result: FilingPageResult | ReturnFormResult): result is FilingPageResult {
  return result.intent === "remove" || result.intent === "stage-notices" || result.intent === "form";
}

/** The return's step when one waits for the client: it comes before the rest (a hand-signed form waiting for our check asks nothing of them). */
function returnNextStep(filing: { draft: unknown; signing: { authorizationForm: string; waiting: boolean } | null }): ClientNextStep | null {
  if (filing.draft)
    return {
      title: "Review your draft return",
      text: "Your draft return is ready. Read it, then approve it or ask us for changes.",
      action: { label: "Review the draft", to: "#review" },
    };
  if (filing.signing && !filing.signing.waiting)
    return {
      title: `Sign your e-file authorisation (Form ${filing.signing.authorizationForm})`,
      text: "We need your signature before we can send your return to the IRS.",
      action: { label: "Sign the form", to: "#sign" },
    };
  return null;
}

/** The fee when some of it is still owed: after the return's steps, before the rest. */
function feeNextStep(fee: ClientFee): ClientNextStep | null {
  const due = totalDue(fee.invoices);
  if (due === 0) return null;
  return {
    title: "Pay your fee",
    text: `${FEE_TEXTS.feeDue(due)}. Pay by card, wire transfer or Zelle.`,
    action: { label: "Pay the fee", to: "#fee" },
  };
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
