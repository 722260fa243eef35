import { ArrowLeft } from "lucide-react";
import { data, Link, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/residency";
import { AboutYou } from "~/components/portal/residency/about-you";
import { ForeignAccounts } from "~/components/portal/residency/foreign-accounts";
import { Household } from "~/components/portal/residency/household";
import { I94Paste } from "~/components/portal/residency/i94-paste";
import { ResultNotice } from "~/components/portal/residency/parts";
import { PersonCard } from "~/components/portal/residency/person-card";
import { PAGE_INTENTS, personArea, planChange, RESIDENCY_PAGE_TEXTS as T } from "~/components/portal/residency/history-edit";
import type { Area, I94Shown, PageFailure, PageIntent, PageResult, ResidencyPageData } from "~/components/portal/residency/history-edit";
import { orderPeople } from "~/components/portal/residency/history-edit";
import { Container } from "~/components/ui/container";
import { newYorkDay } from "~/domain/business-days";
import { parseDollars, RESIDENCY_FORM_MESSAGES } from "~/domain/residency/forms";
import type { PersonInput } from "~/domain/residency/forms";
import { readI94History } from "~/domain/residency/i94";
import { z } from "~/domain/zod";
import { logError } from "~/log";
import { seo } from "~/seo";
import { NO_STORE, userContext } from "~/server/auth/session.server";
import type { SessionUser } from "~/server/auth/session-lookup.server";
import { parseForm } from "~/server/http/form.server";
import type { RawForm } from "~/server/http/form.server";
import { ownCaseFacts, readHistory, saveHistory, setCaseFacts } from "~/server/residency/history.server";
import type { HistoryView } from "~/server/residency/history.server";

// The client's own visa and travel history (docs/product/residency.md#the-history): their status
// periods and stays, and their household's, which decide the residency of each of their cases.
// Plain forms that work without JavaScript, each posting here with its intent; every change reads
// the whole history, makes the one change and saves the whole of it (saveHistory checks every
// field: nothing is saved when one is wrong). Only ever the signed-in client's own history: no
// client id is read from the browser. Staff edit a client's history from the case page: here they
// get a 404.

export const meta: Route.MetaFunction = (args) =>
  seo(args, { title: T.title, description: "Your visa and travel history, which decides your residency for tax.", noindex: true });

export function headers() {
  return NO_STORE;
}

function notFound(): never {
  throw data(null, { status: 404, headers: NO_STORE });
}

/** The signed-in client; anyone else (staff) finds no such page. */
function ownClient(context: Route.LoaderArgs["context"]): SessionUser {
  const user = context.get(userContext);
  if (user.role !== "user") notFound();
  return user;
}

/** The history as the page shows it and changes it: each person's input, client first. */
function peopleOf(view: HistoryView): PersonInput[] {
  return orderPeople(view.people.map(({ id: _id, findings: _findings, ...person }) => person));
}

export async function loader({ context }: Route.LoaderArgs) {
  const user = ownClient(context);
  const [view, facts] = await Promise.all([readHistory(user, user.id), ownCaseFacts(user.id)]);
  if (!view) notFound();
  return data<ResidencyPageData>(
    {
      people: peopleOf(view),
      savedAt: view.savedAt,
      years: facts.map((f) => f.taxYear),
      foreign: facts.map((f) => ({ year: f.taxYear, highestCents: f.foreignAccountsHighestCents })),
    },
    { headers: NO_STORE },
  );
}

const IntentForm = z.object({ intent: z.preprocess((v) => [v].flat()[0], z.enum(PAGE_INTENTS)) });

/** The first text a form sent in `name`; "" when not sent. */
const textOf = (raw: RawForm) => (name: string) => [raw[name] ?? ""].flat()[0] ?? "";

/** The section each intent answers in. */
function areaOf(intent: PageIntent, person: string): Area {
  switch (intent) {
    case "read-i94":
    case "add-i94":
      return "i94";
    case "add-spouse":
    case "add-dependant":
    case "remove-person":
      return "household";
    case "save-about":
      return "about";
    case "save-foreign":
      return "foreign";
    default:
      return personArea(person || "client");
  }
}

/** The fields a form sent, kept to show again (never the hidden list of stays). */
function sentValues(raw: RawForm): Record<string, string> {
  const field = textOf(raw);
  return Object.fromEntries(Object.keys(raw).filter((name) => name !== "stays").map((name) => [name, field(name)]));
}

function reply(result: PageResult, status = 200) {
  return data<PageResult>(result, { status, headers: NO_STORE });
}

function readPaste(text: string): I94Shown {
  const reading = readI94History(text, newYorkDay());
  return { text, stays: reading.stays, unread: reading.unread, warnings: reading.warnings };
}

export async function action({ request, context }: Route.ActionArgs) {
  // The history is always the signed-in client's own: no id from the browser is read.
  const user = ownClient(context);
  const parsed = await parseForm(request, IntentForm);
  const field = textOf(parsed.raw);
  if (!parsed.ok)
    return reply(
      { ok: false, intent: "save-about", area: "page", errors: {}, formError: RESIDENCY_FORM_MESSAGES.badForm, values: {}, i94: null },
      400,
    );
  const intent = parsed.values.intent;
  const area = areaOf(intent, field("person"));
  const values = sentValues(parsed.raw);
  const failure = (over: Partial<PageFailure>, status: number) =>
    reply({ ok: false, intent, area, errors: {}, formError: null, values, i94: null, ...over }, status);

  // Reading a paste saves nothing: the page shows what was read.
  if (intent === "read-i94") {
    const text = field("i94");
    if (text.trim() === "") return failure({ errors: { i94: T.i94Empty } }, 400);
    return reply({ ok: true, intent, area: "i94", i94: readPaste(text) });
  }
  // A year's foreign balance: a fact of that year's case, not of the history.
  if (intent === "save-foreign") {
    const year = Number(field("year"));
    const balance = parseDollars(field("balance"));
    if (!balance.ok) return failure({ errors: { balance: balance.message } }, 400);
    const facts = (await ownCaseFacts(user.id)).find((f) => f.taxYear === year);
    if (!facts) return failure({ formError: RESIDENCY_FORM_MESSAGES.noSuchCase }, 404);
    const saved = await setCaseFacts(user, user.id, year, { foreignAccountsHighestCents: balance.cents, filesJointly: facts.filesJointly }, context.clientIp);
    if (!saved.ok) return failure({ formError: Object.values(saved.errors)[0] ?? RESIDENCY_FORM_MESSAGES.saveFailed }, saved.status ?? 400);
    return reply({ ok: true, intent, area: "foreign", message: T.foreignSaved(year, balance.cents), stamp: crypto.randomUUID() });
  }
  // Adding what was read: should it fail, the paste is read again and shown with the message.
  const i94 = intent === "add-i94" && field("i94").trim() !== "" ? readPaste(field("i94")) : null;

  let view: HistoryView | null;
  try {
    view = await readHistory(user, user.id);
  } catch (error) {
    logError("portal", "could not read residency history", error);
    return failure({ formError: RESIDENCY_FORM_MESSAGES.saveFailed, i94 }, 500);
  }
  if (!view) notFound();
  try {
    const plan = planChange(intent, peopleOf(view), field, () => crypto.randomUUID());
    if (plan.kind === "refuse") return failure({ errors: plan.errors, formError: plan.formError, i94 }, plan.status);
    if (!plan.nothing) {
      const today = newYorkDay();
      const saved = await saveHistory(user, user.id, { people: plan.people }, context.clientIp, today);
      if (!saved.ok) return failure({ ...plan.fieldsOf(saved.errors), i94 }, saved.status ?? 400);
    }
    return reply({ ok: true, intent, area, message: plan.message, stamp: crypto.randomUUID() });
  } catch (error) {
    logError("portal", "could not save residency history", error);
    return failure({ formError: RESIDENCY_FORM_MESSAGES.saveFailed, i94 }, 500);
  }
}

export default function Residency() {
  const { people, years, foreign } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  // Forms start empty again after each save (their key changes), and keep what was typed when refused.
  const stamp = result?.ok && "stamp" in result ? result.stamp : "first";
  const client = people.find((p) => p.role === "client") ?? people[0]!;
  // An answer about a person no longer on the page (removed meanwhile) shows at the top.
  const elsewhere = result !== undefined && result.area.startsWith("person:") && !people.some((p) => personArea(p.key) === result.area);

  return (
    <main id="main" className="bg-surface py-10 sm:py-14">
      <Container className="max-w-4xl">
        <Link
          to="/my-tax-filing"
          className="inline-flex min-h-11 items-center gap-1.5 text-sm font-semibold text-primary-700 underline-offset-4 hover:underline"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          {T.back}
        </Link>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-ink">{T.title}</h1>
        <div className="mt-3 max-w-2xl space-y-2 text-ink-soft">
          <p>{T.lead}</p>
          <p>{T.lead2}</p>
        </div>
        <ResultNotice result={elsewhere ? ({ ...result, area: "page" } as PageResult) : result} area="page" years={years} />

        <div className="mt-8 space-y-6">
          {people.map((person) => (
            <PersonCard key={`${person.key}-${stamp}`} person={person} result={result} years={years} />
          ))}
          <I94Paste key={`i94-${stamp}`} result={result} years={years} />
          <Household key={`household-${stamp}`} people={people} result={result} years={years} />
          <AboutYou key={`about-${stamp}`} client={client} result={result} years={years} />
          <ForeignAccounts key={`foreign-${stamp}`} foreign={foreign} result={result} years={years} />
        </div>
      </Container>
    </main>
  );
}
