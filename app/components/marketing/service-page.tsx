import type { LucideIcon } from "lucide-react";
import {
  ArrowRight,
  Calculator,
  CalendarClock,
  ClipboardCheck,
  FileText,
  Hourglass,
  Landmark,
  ListChecks,
  Receipt,
  Users,
  Wallet,
} from "lucide-react";
import { Link } from "react-router";
import { ButtonLink } from "~/components/ui/button";
import { Container } from "~/components/ui/container";
import { business, telLink } from "~/content/business";
import type { ServiceSlug, StandardServiceDetail } from "~/content/service-details";
import { serviceQuestions } from "~/content/service-details";
import { servicePages } from "~/content/service-pages";
import { formatUsd } from "~/content/tax-facts";
import { ServiceContactActions } from "./service-contact-actions";
import { RichText } from "./service-rich-text";
import {
  CalloutBox,
  CheckList,
  Definitions,
  KeyFactsCard,
  NextStepsList,
  SectionShell,
  ServiceHero,
  TextBlockSection,
} from "./service-sections";

/** A picture for each service (decorative). */
export const serviceIcons: Record<ServiceSlug, LucideIcon> = {
  "itin-processing": ClipboardCheck,
  "fbar-filing": Landmark,
  "1040-returns": FileText,
  "w4-assistance": Wallet,
  "form-4868-extension": CalendarClock,
  "professional-tax-planning": Calculator,
};

/** Call, chat and contact-form actions at the foot of a service page. */
export function ServiceCallToAction({ name, whatsappText }: { name: string; whatsappText: string }) {
  return (
    <section aria-labelledby="service-cta" className="bg-ink text-white">
      <Container className="flex flex-col gap-8 py-12 lg:flex-row lg:items-center lg:justify-between">
        <div className="max-w-[60ch]">
          <h2 id="service-cta" className="text-2xl font-bold tracking-tight sm:text-3xl">
            Talk to us about {name}
          </h2>
          <p className="mt-3 text-slate-200">
            Call{" "}
            <a href={telLink} className="font-semibold text-white underline underline-offset-2">
              {business.phone.display}
            </a>{" "}
            or send a WhatsApp message, {business.hoursLong}. We respond {business.responsePromise}. Prefer
            writing?{" "}
            <Link to="/contact" className="font-semibold text-white underline underline-offset-2">
              Send us a message
            </Link>
            .
          </p>
        </div>
        <ServiceContactActions whatsappText={whatsappText} inverse className="shrink-0" />
      </Container>
    </section>
  );
}

/** Links to the other five service pages. */
export function OtherServices({ current }: { current: ServiceSlug }) {
  return (
    <section aria-labelledby="other-services" className="bg-surface">
      <Container className="py-12">
        <h2 id="other-services" className="text-xl font-bold text-ink">
          Other services
        </h2>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {servicePages
            .filter((s) => s.slug !== current)
            .map((s) => {
              const Icon = serviceIcons[s.slug];
              return (
                <li key={s.slug}>
                  <Link
                    to={s.path}
                    className="group flex h-full gap-4 rounded-card border border-line bg-white p-5 shadow-card transition-colors hover:border-primary-500"
                  >
                    <Icon className="mt-0.5 size-6 shrink-0 text-primary-700" aria-hidden="true" />
                    <span>
                      <span className="flex items-center gap-1 font-semibold text-ink group-hover:text-primary-700">
                        {s.name}
                        <ArrowRight className="size-4" aria-hidden="true" />
                      </span>
                      <span className="mt-1 block text-sm text-ink-soft">{s.summary}</span>
                    </span>
                  </Link>
                </li>
              );
            })}
        </ul>
      </Container>
    </section>
  );
}

/**
 * The layout shared by the five service pages other than ITIN: the six questions (who needs this,
 * what we do, what you provide, how long it takes, what it costs, what happens next), the
 * year-dependent key facts, and call and chat actions.
 */
export function ServicePage({ detail }: { detail: StandardServiceDetail }) {
  const price = formatUsd(detail.cost.from);
  return (
    <main id="main">
      <ServiceHero
        name={detail.name}
        overline={detail.overline}
        icon={serviceIcons[detail.slug]}
        price={{ label: "Fees start from", amount: price, unit: detail.cost.unit }}
        actions={<ServiceContactActions whatsappText={detail.whatsappText} />}
      >
        <p>{detail.lead}</p>
        <Definitions items={detail.definitions} />
      </ServiceHero>

      <Container className="py-12 lg:py-16">
        <div className="grid gap-12 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <aside aria-label="Key facts" className="lg:col-start-2 lg:row-start-1">
            <div className="space-y-6 lg:sticky lg:top-24">
              <KeyFactsCard {...detail.keyFacts} />
              <div className="hidden rounded-card border border-line bg-surface p-6 lg:block">
                <p className="font-semibold text-ink">Questions before you start?</p>
                <p className="mt-1 text-sm text-ink-soft">The first consultation (30 minutes) is free.</p>
                <ServiceContactActions
                  whatsappText={detail.whatsappText}
                  size="md"
                  stacked
                  className="mt-4"
                />
              </div>
            </div>
          </aside>

          <div className="max-w-[70ch] min-w-0 space-y-12 leading-relaxed lg:col-start-1 lg:row-start-1">
            <TextBlockSection block={detail.who} icon={Users} />
            {detail.callouts.map((c) => (
              <CalloutBox key={c.id} callout={c} />
            ))}
            <TextBlockSection block={detail.whatWeDo} icon={ListChecks} />
            <TextBlockSection block={detail.provide} icon={FileText} />
            <TextBlockSection block={detail.timing} icon={Hourglass} />

            <SectionShell title={serviceQuestions.cost} icon={Receipt}>
              <div className="rounded-card border border-line bg-white p-6 shadow-card">
                <p className="text-ink-soft">
                  From <span className="text-3xl font-bold text-ink">{price}</span> {detail.cost.unit}
                </p>
                <p className="mt-4 font-semibold text-ink">Included:</p>
                <div className="mt-2">
                  <CheckList items={detail.cost.includes} />
                </div>
                <p className="mt-4 border-t border-line pt-4 text-sm">
                  <RichText value={detail.cost.note} />
                </p>
                <div className="mt-5 flex flex-wrap gap-3">
                  <ButtonLink to="/contact" variant="primary" size="md">
                    Book a free consultation
                  </ButtonLink>
                  <ButtonLink to="/pricing" variant="ghost" size="md">
                    See all prices
                  </ButtonLink>
                </div>
              </div>
            </SectionShell>

            <SectionShell title={serviceQuestions.next} icon={ArrowRight}>
              <NextStepsList steps={detail.next} />
            </SectionShell>

            <p className="text-sm text-ink-muted">
              This page is general information, not advice for your situation. Tax rules and dates change; the
              dates above apply to the year shown with them.
            </p>
          </div>
        </div>
      </Container>

      <ServiceCallToAction name={detail.name} whatsappText={detail.whatsappText} />
      <OtherServices current={detail.slug} />
    </main>
  );
}
