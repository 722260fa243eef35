import {
  ArrowRight,
  Check,
  FileText,
  Hourglass,
  ListChecks,
  Send,
  ShieldCheck,
  Star,
  UserPlus,
  Users,
} from "lucide-react";
import { ButtonLink } from "~/components/ui/button";
import { Container } from "~/components/ui/container";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import type { ItinServiceDetail } from "~/content/service-details";
import { serviceQuestions } from "~/content/service-details";
import { formatUsd } from "~/content/tax-facts";
import { ServiceContactActions } from "./service-contact-actions";
import { OtherServices, ServiceCallToAction, serviceIcons } from "./service-page";
import { RichText } from "./service-rich-text";
import { Definitions, NextStepsList, SectionShell, ServiceHero, TextBlockSection } from "./service-sections";

export const itinTabs = [
  { value: "overview", label: "Overview" },
  { value: "process", label: "Process" },
  { value: "pricing", label: "Pricing" },
  { value: "get-started", label: "Get Started" },
] as const;

type TabValue = (typeof itinTabs)[number]["value"];

/** Prefix of the tab ids; each panel's heading id is `itin-<tab>`. */
const TABS_ID = "itin";
/** Each panel's heading id; "#pricing" or "#itin-pricing" in the address opens that tab. */
const panelHeadingId = (value: TabValue) => `${TABS_ID}-${value}`;
/** Overview is selected on arrival; app/enhance/tabs.ts switches tabs. */
const INITIAL_TAB: TabValue = "overview";
const isInitialTab = (value: TabValue) => value === INITIAL_TAB;

function PanelHeading({ value, lead }: { value: TabValue; lead?: string }) {
  const label = itinTabs.find((t) => t.value === value)?.label ?? value;
  return (
    <div className="max-w-[70ch]">
      <h2
        id={panelHeadingId(value)}
        className="scroll-mt-24 text-2xl font-bold tracking-tight text-ink sm:text-3xl"
      >
        {label}
      </h2>
      {lead ? <p className="mt-2 text-lg text-ink-soft">{lead}</p> : null}
    </div>
  );
}

function PlanCard({ plan }: { plan: ItinServiceDetail["plans"][number] }) {
  const id = `plan-${plan.name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  return (
    <li
      className={`relative flex flex-col rounded-card border bg-white p-6 shadow-card sm:p-8 ${
        plan.popular ? "border-2 border-primary-600" : "border-line"
      }`}
    >
      {plan.popular ? (
        <p className="absolute -top-3.5 left-6 inline-flex items-center gap-1 rounded-full bg-accent-500 px-3 py-1 text-xs font-bold tracking-wide text-ink uppercase">
          <Star className="size-3.5" aria-hidden="true" />
          Most Popular
        </p>
      ) : null}
      <h3 id={id} className="text-xl font-bold text-ink">
        {plan.name}
      </h3>
      <p className="mt-4 flex items-baseline gap-2">
        <span className="text-4xl font-bold tracking-tight text-ink">{formatUsd(plan.price)}</span>
        <span className="text-ink-soft">{plan.unit}</span>
      </p>
      <p className="mt-2 inline-flex items-center gap-2 font-semibold text-primary-700">
        <Hourglass className="size-4" aria-hidden="true" />
        <span>
          <span className="sr-only">Typical time: </span>
          {plan.time}
        </span>
      </p>
      <ul className="mt-6 space-y-3 text-ink-soft">
        {plan.features.map((f) => (
          <li key={f} className="flex gap-3">
            <Check className="mt-1 size-4 shrink-0 text-primary-600" aria-hidden="true" />
            {f}
          </li>
        ))}
      </ul>
    </li>
  );
}

/** The ITIN Processing page: a hero, then four tabs (Overview, Process, Pricing, Get Started). */
export function ItinServicePage({ detail }: { detail: ItinServiceDetail }) {
  const cheapest = Math.min(...detail.plans.map((p) => p.price));

  return (
    <main id="main">
      <ServiceHero
        name={detail.name}
        overline={detail.overline}
        icon={serviceIcons[detail.slug]}
        price={{ label: "Fees start from", amount: formatUsd(cheapest), unit: "per application" }}
        actions={<ServiceContactActions whatsappText={detail.whatsappText} />}
      >
        <p className="text-xl font-semibold text-ink">{detail.oneLine}</p>
        <p>{detail.lead}</p>
      </ServiceHero>

      <Container className="py-12 lg:py-16">
        <Tabs idPrefix={TABS_ID}>
          <TabsList aria-label={`${detail.name} details`}>
            {itinTabs.map((t) => (
              <TabsTrigger key={t.value} idPrefix={TABS_ID} value={t.value} selected={isInitialTab(t.value)}>
                {t.label}
              </TabsTrigger>
            ))}
          </TabsList>

          <TabsContent idPrefix={TABS_ID} value="overview" selected={isInitialTab("overview")} className="mt-10 space-y-10">
            <PanelHeading
              value="overview"
              lead="What an ITIN is, who needs one, and what you need to apply."
            />
            <Definitions items={detail.definitions} className="max-w-[70ch] bg-surface" />
            <div className="grid gap-10 lg:grid-cols-2">
              <TextBlockSection block={detail.who} level={3} icon={Users} />
              <TextBlockSection block={detail.whatWeDo} level={3} icon={ListChecks} />
            </div>
            <div className="grid gap-10 lg:grid-cols-2">
              <TextBlockSection block={detail.provide} level={3} icon={FileText} />
              <div className="self-start rounded-card border border-primary-200 bg-primary-50/60 p-6">
                <TextBlockSection block={detail.documentOptions} level={3} icon={ShieldCheck} />
              </div>
            </div>
            <p className="flex flex-wrap gap-x-6 gap-y-2 font-semibold">
              <a
                href={`#${panelHeadingId("process")}`}
                className="inline-flex items-center gap-1 text-primary-700 underline underline-offset-2 hover:text-primary-800"
              >
                See the process <ArrowRight className="size-4" aria-hidden="true" />
              </a>
              <a
                href={`#${panelHeadingId("pricing")}`}
                className="inline-flex items-center gap-1 text-primary-700 underline underline-offset-2 hover:text-primary-800"
              >
                See pricing <ArrowRight className="size-4" aria-hidden="true" />
              </a>
            </p>
          </TabsContent>

          <TabsContent idPrefix={TABS_ID} value="process" selected={isInitialTab("process")} className="mt-10 space-y-10">
            <PanelHeading value="process" lead="Four steps from your documents to the IRS's answer." />
            <ol className="grid gap-6 md:grid-cols-2 lg:grid-cols-4">
              {detail.steps.map((step, index) => (
                <li key={step.title} className="rounded-card border border-line bg-white p-6 shadow-card">
                  <span
                    aria-hidden="true"
                    className="flex size-9 items-center justify-center rounded-full bg-primary-600 text-sm font-bold text-white"
                  >
                    {index + 1}
                  </span>
                  <h3 className="mt-4 text-lg font-bold text-ink">{step.title}</h3>
                  <p className="mt-2 text-ink-soft">{step.text}</p>
                </li>
              ))}
            </ol>
            <div className="max-w-[70ch]">
              <TextBlockSection block={detail.timing} level={3} icon={Hourglass} />
            </div>
          </TabsContent>

          <TabsContent idPrefix={TABS_ID} value="pricing" selected={isInitialTab("pricing")} className="mt-10 space-y-10">
            <PanelHeading
              value="pricing"
              lead={`${serviceQuestions.cost}: two plans, both per application.`}
            />
            <ul className="grid max-w-4xl gap-8 md:grid-cols-2">
              {detail.plans.map((plan) => (
                <PlanCard key={plan.name} plan={plan} />
              ))}
            </ul>
            <div className="max-w-[70ch] space-y-3 text-ink-soft">
              {detail.pricingNote.map((note, index) => (
                <p key={index}>
                  <RichText value={note} />
                </p>
              ))}
            </div>
            <p>
              <a
                href={`#${panelHeadingId("get-started")}`}
                className="inline-flex items-center gap-1 font-semibold text-primary-700 underline underline-offset-2 hover:text-primary-800"
              >
                How to get started <ArrowRight className="size-4" aria-hidden="true" />
              </a>
            </p>
          </TabsContent>

          <TabsContent idPrefix={TABS_ID} value="get-started" selected={isInitialTab("get-started")} className="mt-10 space-y-10">
            <PanelHeading value="get-started" lead="Call or message us, and we take it from there." />
            <div className="grid gap-10 lg:grid-cols-[minmax(0,1fr)_22rem]">
              <div className="max-w-[70ch]">
                <SectionShell title={serviceQuestions.next} level={3} icon={ArrowRight}>
                  <NextStepsList steps={detail.next} />
                </SectionShell>
              </div>
              <div className="self-start rounded-card border border-line bg-surface p-6">
                <p className="font-semibold text-ink">Talk to a tax professional</p>
                <p className="mt-1 text-sm text-ink-soft">The first consultation (30 minutes) is free.</p>
                <ServiceContactActions
                  whatsappText={detail.whatsappText}
                  size="md"
                  stacked
                  className="mt-4"
                />
                <div className="mt-4 flex flex-col gap-3 border-t border-line pt-4">
                  <ButtonLink to="/contact" variant="secondary">
                    <Send className="size-4" aria-hidden="true" />
                    Send us a message
                  </ButtonLink>
                  <ButtonLink to="/signup" variant="ghost">
                    <UserPlus className="size-4" aria-hidden="true" />
                    Create your account
                  </ButtonLink>
                </div>
              </div>
            </div>
          </TabsContent>
        </Tabs>
      </Container>

      <ServiceCallToAction name={detail.name} whatsappText={detail.whatsappText} />
      <OtherServices current={detail.slug} />
    </main>
  );
}
