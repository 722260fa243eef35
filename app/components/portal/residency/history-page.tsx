import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { AboutYou } from "./about-you";
import { ForeignAccounts } from "./foreign-accounts";
import { personArea } from "./history-edit";
import type { HistoryTexts, PageResult, PersonShown } from "./history-edit";
import { Household } from "./household";
import { I94Paste } from "./i94-paste";
import { HistoryTextsContext, ResultNotice } from "./parts";
import { PersonCard } from "./person-card";

/**
 * The visa and travel history's page (docs/product/residency.md#the-history) in the voice of
 * `texts`: the client's own at /my-residency (with each year's foreign balance), or staff's on a
 * client's case (without it: staff set that fact on the case's Residency section). A way back,
 * the title and lead, then each person's card, the I-94 paste, the household and "About".
 */
export function HistoryPage({
  texts,
  backTo,
  level,
  people,
  years,
  foreign,
  result,
}: {
  texts: HistoryTexts;
  /** Where the link back goes. */
  backTo: string;
  /** The title's heading level: 1 on a page of its own, 2 inside the case's frame. */
  level: 1 | 2;
  people: readonly PersonShown[];
  years: readonly number[];
  /** Each filing year's highest balance outside the US; the form shows only when given. */
  foreign?: ReadonlyArray<{ year: number; highestCents: number | null }>;
  result: PageResult | undefined;
}) {
  // Forms start empty again after each save (their key changes), and keep what was typed when refused.
  const stamp = result?.ok && "stamp" in result ? result.stamp : "first";
  const client = people.find((p) => p.role === "client") ?? people[0]!;
  // An answer about a person no longer on the page (removed meanwhile) shows at the top.
  const elsewhere = result !== undefined && result.area.startsWith("person:") && !people.some((p) => personArea(p.key) === result.area);
  const Title = level === 1 ? "h1" : "h2";

  return (
    <HistoryTextsContext value={texts}>
      <Link
        to={backTo}
        className="inline-flex min-h-11 items-center gap-1.5 text-sm font-semibold text-primary-700 underline-offset-4 hover:underline"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        {texts.back}
      </Link>
      <Title className={`mt-2 font-bold tracking-tight break-words text-ink ${level === 1 ? "text-3xl" : "text-2xl"}`}>{texts.title}</Title>
      <div className="mt-3 max-w-2xl space-y-2 text-ink-soft">
        <p>{texts.lead}</p>
        <p>{texts.lead2}</p>
      </div>
      <ResultNotice result={elsewhere ? ({ ...result, area: "page" } as PageResult) : result} area="page" years={years} />

      <div className="mt-8 space-y-6">
        {people.map((person) => (
          <PersonCard key={`${person.key}-${stamp}`} person={person} result={result} years={years} />
        ))}
        <I94Paste key={`i94-${stamp}`} result={result} years={years} />
        <Household key={`household-${stamp}`} people={people} result={result} years={years} />
        <AboutYou key={`about-${stamp}`} client={client} result={result} years={years} />
        {foreign ? <ForeignAccounts key={`foreign-${stamp}`} foreign={foreign} result={result} years={years} /> : null}
      </div>
    </HistoryTextsContext>
  );
}
