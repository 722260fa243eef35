import type { LucideIcon } from "lucide-react";
import { CalendarDays, Check, Clock, Info, TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { Container } from "~/components/ui/container";
import { business } from "~/content/business";
import type {
  Callout,
  FactTable,
  Definition,
  KeyFact,
  NextStep,
  RichText as RichTextValue,
  TextBlock,
} from "~/content/service-details";
import { Breadcrumbs } from "./breadcrumbs";
import { RichText } from "./service-rich-text";

/** "Who needs this" → "who-needs-this", for heading anchors. */
export function anchorId(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** The top of every service page: breadcrumbs, the one h1, the lead, the contact actions and the price. */
export function ServiceHero({
  name,
  overline,
  icon: Icon,
  price,
  children,
  actions,
}: {
  name: string;
  overline: string;
  icon: LucideIcon;
  price: { label: string; amount: string; unit: string };
  /** Lead text under the h1. */
  children: ReactNode;
  actions: ReactNode;
}) {
  return (
    <section className="border-b border-line bg-linear-to-b from-primary-50 to-white">
      <Container className="py-10 sm:py-14 lg:py-16">
        <Breadcrumbs
          trail={[
            { label: "Home", to: "/" },
            { label: "Services", to: "/services" },
          ]}
          current={name}
        />
        <div className="mt-6 grid gap-10 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-center">
          <div className="max-w-[70ch]">
            <p className="text-sm font-semibold tracking-wide text-primary-700 uppercase">{overline}</p>
            <h1 className="mt-2 text-3xl font-bold tracking-tight text-ink sm:text-4xl lg:text-5xl">
              {name}
            </h1>
            <div className="mt-5 space-y-4 text-lg text-ink-soft">{children}</div>
            <div className="mt-8">{actions}</div>
          </div>
          <div className="relative rounded-card border border-line bg-white p-6 shadow-card">
            <div
              aria-hidden="true"
              className="absolute -top-5 right-6 flex size-12 items-center justify-center rounded-xl bg-primary-600 text-white shadow-card"
            >
              <Icon className="size-6" />
            </div>
            <p className="text-sm font-medium text-ink-muted">{price.label}</p>
            <p className="mt-1 text-4xl font-bold tracking-tight text-ink">{price.amount}</p>
            <p className="text-sm text-ink-soft">{price.unit}</p>
            <ul className="mt-5 space-y-2 border-t border-line pt-4 text-sm text-ink-soft">
              <li className="flex gap-2">
                <Check className="mt-0.5 size-4 shrink-0 text-primary-600" aria-hidden="true" />
                Free first consultation (30 minutes)
              </li>
              <li className="flex gap-2">
                <Check className="mt-0.5 size-4 shrink-0 text-primary-600" aria-hidden="true" />
                Fee confirmed in writing before we start
              </li>
              <li className="flex gap-2">
                <Clock className="mt-0.5 size-4 shrink-0 text-primary-600" aria-hidden="true" />
                {business.hoursLong}
              </li>
            </ul>
          </div>
        </div>
      </Container>
    </section>
  );
}

/** One-line explanations of the terms a reader may not know. */
export function Definitions({ items, className = "" }: { items: readonly Definition[]; className?: string }) {
  return (
    <dl className={`space-y-2 rounded-xl border border-line bg-white/80 p-4 text-base ${className}`}>
      {items.map((d) => (
        <div key={d.term}>
          <dt className="inline font-semibold text-ink">{d.term}: </dt>
          <dd className="inline text-ink-soft">{d.meaning}</dd>
        </div>
      ))}
    </dl>
  );
}

export function CheckList({ items }: { items: readonly RichTextValue[] }) {
  return (
    <ul className="space-y-3">
      {items.map((item, index) => (
        <li key={index} className="flex gap-3">
          <Check className="mt-1 size-5 shrink-0 text-primary-600" aria-hidden="true" />
          <span>
            <RichText value={item} />
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The body of a text block: paragraphs, then the list. */
export function TextBlockBody({ block }: { block: TextBlock }) {
  return (
    <div className="space-y-4 text-ink-soft">
      {block.paragraphs?.map((text, index) => (
        <p key={index}>
          <RichText value={text} />
        </p>
      ))}
      {block.items ? <CheckList items={block.items} /> : null}
      {block.after?.map((text, index) => (
        <p key={`after-${index}`}>
          <RichText value={text} />
        </p>
      ))}
    </div>
  );
}

type HeadingLevel = 2 | 3;

function Heading({
  level,
  id,
  children,
  icon: Icon,
}: {
  level: HeadingLevel;
  id: string;
  children: ReactNode;
  icon?: LucideIcon;
}) {
  const Tag = level === 2 ? "h2" : "h3";
  return (
    <Tag
      id={id}
      className={`flex scroll-mt-24 items-center gap-3 font-bold tracking-tight text-ink ${level === 2 ? "text-2xl" : "text-xl"}`}
    >
      {Icon ? (
        <span
          aria-hidden="true"
          className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary-50 text-primary-700"
        >
          <Icon className="size-5" />
        </span>
      ) : null}
      {children}
    </Tag>
  );
}

/** A titled section: heading (h2 or h3) with an optional icon, then the block's text. */
export function TextBlockSection({
  block,
  level = 2,
  icon,
  children,
}: {
  block: TextBlock;
  level?: HeadingLevel;
  icon?: LucideIcon;
  children?: ReactNode;
}) {
  const id = anchorId(block.title);
  return (
    <section aria-labelledby={id}>
      <Heading level={level} id={id} icon={icon}>
        {block.title}
      </Heading>
      <div className="mt-4">
        <TextBlockBody block={block} />
        {children}
      </div>
    </section>
  );
}

export function SectionShell({
  title,
  level = 2,
  icon,
  children,
}: {
  title: string;
  level?: HeadingLevel;
  icon?: LucideIcon;
  children: ReactNode;
}) {
  const id = anchorId(title);
  return (
    <section aria-labelledby={id}>
      <Heading level={level} id={id} icon={icon}>
        {title}
      </Heading>
      <div className="mt-4 text-ink-soft">{children}</div>
    </section>
  );
}

/** Rules, thresholds and penalties, set apart from the running text. */
export function CalloutBox({ callout, level = 2 }: { callout: Callout; level?: HeadingLevel }) {
  const warning = callout.tone === "warning";
  const Icon = warning ? TriangleAlert : Info;
  const Tag = level === 2 ? "h2" : "h3";
  const headingId = callout.id;
  return (
    <section
      aria-labelledby={headingId}
      className={`rounded-card border p-5 sm:p-6 ${
        warning ? "border-accent-500/60 bg-accent-50" : "border-primary-200 bg-primary-50/60"
      }`}
    >
      <Tag
        id={headingId}
        className="flex scroll-mt-24 items-start gap-3 text-xl font-bold tracking-tight text-ink"
      >
        <Icon
          className={`mt-0.5 size-6 shrink-0 ${warning ? "text-accent-700" : "text-primary-700"}`}
          aria-hidden="true"
        />
        {callout.title}
      </Tag>
      <div className="mt-4 space-y-4 text-ink-soft">
        {callout.paragraphs?.map((text, index) => (
          <p key={index}>
            <RichText value={text} />
          </p>
        ))}
        {callout.items ? <CheckList items={callout.items} /> : null}
        {callout.table ? <FactTableView table={callout.table} /> : null}
      </div>
    </section>
  );
}

/**
 * A three-column table of facts. On a phone each row becomes a card that names its two
 * figures, so nothing is cut off; from the `sm` breakpoint it is a table.
 */
function FactTableView({ table }: { table: FactTable }) {
  const [, firstFigure, secondFigure] = table.headers;
  return (
    <>
      <ul className="space-y-3 sm:hidden" aria-label={table.caption} data-fact-cards="">
        {table.rows.map((row) => (
          <li key={row[0]} className="rounded-lg border border-line bg-white p-4">
            <p className="font-semibold text-ink">{row[0]}</p>
            <dl className="mt-3 space-y-3 text-sm">
              {[
                [firstFigure, row[1]],
                [secondFigure, row[2]],
              ].map(([label, value]) => (
                <div key={label}>
                  <dt className="text-ink-muted">{label}</dt>
                  <dd className="mt-0.5 text-base font-semibold text-ink tabular-nums">{value}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
      <div
        className="hidden overflow-x-auto rounded-lg border border-line bg-white sm:block"
        tabIndex={0}
        role="region"
        aria-label={table.caption}
      >
        <table className="w-full min-w-[32rem] border-collapse text-left text-sm">
          <caption className="sr-only">{table.caption}</caption>
          <thead className="bg-surface text-ink">
            <tr>
              {table.headers.map((h) => (
                <th key={h} scope="col" className="px-4 py-3 font-semibold">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row) => (
              <tr key={row[0]} className="border-t border-line">
                <th scope="row" className="px-4 py-3 font-medium text-ink">
                  {row[0]}
                </th>
                <td className="px-4 py-3 tabular-nums">{row[1]}</td>
                <td className="px-4 py-3 tabular-nums">{row[2]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** Dates and thresholds, with the year they apply to. */
export function KeyFactsCard({
  title,
  appliesTo,
  facts,
}: {
  title: string;
  appliesTo: string;
  facts: readonly KeyFact[];
}) {
  const id = anchorId(title);
  return (
    <section aria-labelledby={id} className="rounded-card border border-line bg-white p-6 shadow-card">
      <h2 id={id} className="flex items-center gap-2 text-lg font-bold text-ink">
        <CalendarDays className="size-5 text-primary-700" aria-hidden="true" />
        {title}
      </h2>
      <p className="mt-1 text-sm font-medium text-primary-700">{appliesTo}</p>
      <dl className="mt-4 divide-y divide-line">
        {facts.map((f) => (
          <div key={f.label} className="py-3 first:pt-0 last:pb-0">
            <dt className="text-sm text-ink-muted">{f.label}</dt>
            <dd className="font-semibold text-ink">{f.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Numbered steps: what happens after the reader gets in touch. */
export function NextStepsList({ steps }: { steps: readonly NextStep[] }) {
  return (
    <ol className="space-y-5">
      {steps.map((step, index) => (
        <li key={step.title} className="flex gap-4">
          <span
            aria-hidden="true"
            className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary-600 text-sm font-bold text-white"
          >
            {index + 1}
          </span>
          <div>
            <p className="font-semibold text-ink">
              <span className="sr-only">Step {index + 1}: </span>
              {step.title}
            </p>
            <p className="mt-1 text-ink-soft">
              <RichText value={step.text} />
            </p>
          </div>
        </li>
      ))}
    </ol>
  );
}
