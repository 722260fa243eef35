import {
  ArrowRight,
  BadgeCheck,
  ClipboardList,
  CreditCard,
  Eye,
  FileCheck2,
  FileSearch,
  FileText,
  FolderUp,
  GraduationCap,
  type LucideIcon,
  Lock,
  Send,
  UserPlus,
  Users,
} from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/about";
import { AboutIllustration } from "~/components/marketing/about-illustration";
import { ButtonLink } from "~/components/ui/button";
import { Container } from "~/components/ui/container";
import { type CoreValue, type WorkflowStage, coreValues, howItWorks, mission } from "~/content/about";
import { business, figures } from "~/content/business";
import { seo } from "~/seo";

/** A public page: server-rendered, no React in the browser (docs/decisions/0008). */
export const handle = { hydrate: false };

export const meta: Route.MetaFunction = (args) =>
  seo(args, {
    title: "About us and how it works",
    description: `${business.name} files US taxes for visa holders, nonresidents and green card holders. Our mission, our values and the eight steps from sign-up to your final copies.`,
  });

const valueIcons: Record<CoreValue["id"], LucideIcon> = {
  transparency: Eye,
  expertise: GraduationCap,
  security: Lock,
};

const stageIcons: Record<WorkflowStage, LucideIcon> = {
  HOME: UserPlus,
  "TAX INFO": ClipboardList,
  DOCUMENTS: FolderUp,
  PREPARATION: FileSearch,
  DRAFT: FileText,
  PAYMENT: CreditCard,
  "E-FILING": Send,
  "FINAL COPIES": FileCheck2,
};

function AboutActions({ inverse = false }: { inverse?: boolean }) {
  return (
    <div className="flex flex-wrap gap-3">
      <ButtonLink to="/contact" size="lg" variant={inverse ? "inverse" : "primary"}>
        Contact us
        <ArrowRight className="size-5" aria-hidden="true" />
      </ButtonLink>
      {inverse ? (
        <Link
          to="/services"
          className="inline-flex items-center justify-center gap-2 rounded-lg border border-white/70 px-6 py-3 text-base font-semibold whitespace-nowrap text-white transition-colors hover:bg-white/10"
        >
          Explore our services
        </Link>
      ) : (
        <ButtonLink to="/services" size="lg" variant="secondary">
          Explore our services
        </ButtonLink>
      )}
    </div>
  );
}

export default function About() {
  return (
    <main id="main">
      <section className="border-b border-line bg-linear-to-b from-primary-50 to-white">
        <Container className="grid items-center gap-10 py-14 sm:py-20 lg:grid-cols-[1.1fr_1fr]">
          <div>
            <p className="text-sm font-semibold tracking-wide text-primary-700 uppercase">About {business.name}</p>
            <h1 className="mt-2 text-4xl font-bold tracking-tight text-ink sm:text-5xl">
              US taxes, made clear for people between two countries
            </h1>
            <p className="mt-5 max-w-[60ch] text-lg text-ink-soft">
              We prepare and file US taxes for non-resident aliens, visa holders (F-1, H-1B, J-1, L-1), green card
              holders and families with ties abroad. You always know what we are doing, what it costs and what
              comes next.
            </p>
            <div className="mt-8">
              <AboutActions />
            </div>
          </div>
          <div className="relative mx-auto w-full max-w-md">
            <AboutIllustration className="h-auto w-full" />
            <p className="absolute -bottom-4 left-4 inline-flex items-center gap-3 rounded-card border border-line bg-white px-4 py-3 shadow-card sm:left-0">
              <span className="inline-flex size-10 items-center justify-center rounded-full bg-primary-50 text-primary-700">
                <Users className="size-5" aria-hidden="true" />
              </span>
              <span>
                <span className="block text-xl font-bold text-ink">{`${figures.clientsServed} clients`}</span>
                <span className="block text-sm text-ink-muted">served so far</span>
              </span>
            </p>
          </div>
        </Container>
      </section>

      <section aria-labelledby="mission-heading" className="py-14 sm:py-20">
        <Container className="grid gap-8 lg:grid-cols-[1fr_2fr] lg:gap-16">
          <div>
            <p className="text-sm font-semibold tracking-wide text-primary-700 uppercase">Why we exist</p>
            <h2 id="mission-heading" className="mt-2 text-3xl font-bold tracking-tight text-ink">
              {mission.title}
            </h2>
          </div>
          <div className="space-y-4 text-lg text-ink-soft">
            {mission.paragraphs.map((paragraph) => (
              <p key={paragraph} className="max-w-[68ch]">
                {paragraph}
              </p>
            ))}
            <p className="inline-flex items-center gap-2 text-base font-medium text-ink">
              <BadgeCheck className="size-5 text-primary-700" aria-hidden="true" />
              {business.licensedBadge} · {business.hoursLong}
            </p>
          </div>
        </Container>
      </section>

      <section aria-labelledby="values-heading" className="bg-surface py-14 sm:py-20">
        <Container>
          <div className="mx-auto max-w-2xl text-center">
            <h2 id="values-heading" className="text-3xl font-bold tracking-tight text-ink">
              Our core values
            </h2>
            <p className="mt-3 text-ink-soft">Three promises about how we work with you.</p>
          </div>
          <ul className="mt-10 grid gap-6 md:grid-cols-3">
            {coreValues.map((value) => {
              const Icon = valueIcons[value.id];
              return (
                <li key={value.id} className="rounded-card border border-line bg-white p-6 shadow-card">
                  <span className="inline-flex size-12 items-center justify-center rounded-xl bg-primary-600 text-white">
                    <Icon className="size-6" aria-hidden="true" />
                  </span>
                  <h3 className="mt-4 text-xl font-semibold text-ink">{value.name}</h3>
                  <p className="mt-2 text-ink-soft">{value.text}</p>
                </li>
              );
            })}
          </ul>
        </Container>
      </section>

      <section id="how-it-works" aria-labelledby="how-heading" className="scroll-mt-24 py-14 sm:py-20">
        <Container>
          <div className="mx-auto max-w-2xl text-center">
            <p className="text-sm font-semibold tracking-wide text-primary-700 uppercase">Eight steps</p>
            <h2 id="how-heading" className="mt-2 text-3xl font-bold tracking-tight text-ink">
              How It Works
            </h2>
            <p className="mt-3 text-ink-soft">
              From your first sign-up to your final copies, you can see which step your filing is at.
            </p>
          </div>
          <ol className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {howItWorks.map((step, index) => {
              const Icon = stageIcons[step.stage];
              return (
                <li key={step.stage} className="relative flex flex-col rounded-card border border-line bg-white p-5">
                  <div className="flex items-center justify-between gap-3">
                    <span className="inline-flex size-10 items-center justify-center rounded-full bg-primary-50 text-primary-700">
                      <Icon className="size-5" aria-hidden="true" />
                    </span>
                    <span className="text-xs font-semibold tracking-wide text-ink-muted">
                      <span className="sr-only">Step </span>
                      {String(index + 1).padStart(2, "0")} · {step.stage}
                    </span>
                  </div>
                  <h3 className="mt-4 text-lg font-semibold text-ink">{step.title}</h3>
                  <p className="mt-2 text-sm text-ink-soft">{step.text}</p>
                </li>
              );
            })}
          </ol>
        </Container>
      </section>

      <section aria-labelledby="about-cta" className="pb-16 sm:pb-20">
        <Container>
          <div className="flex flex-col gap-6 rounded-card bg-ink p-6 text-white sm:p-10 md:flex-row md:items-center md:justify-between">
            <div>
              <h2 id="about-cta" className="text-2xl font-bold tracking-tight">
                Ready to talk about your taxes?
              </h2>
              <p className="mt-2 max-w-[55ch] text-slate-200">
                Send us a message and we reply {business.responsePromise}. The first 30-minute consultation is
                free.
              </p>
            </div>
            <AboutActions inverse />
          </div>
        </Container>
      </section>
    </main>
  );
}
