import { ArrowRight, CalendarClock, FileText, IdCard, Landmark, TrendingUp, Wallet } from "lucide-react";
import { Link } from "react-router";
import { Container, SectionHeading } from "~/components/ui/container";
import { showcaseServices, showcaseStats } from "~/content/home";
import { residencyTool } from "~/content/tools";
import type { ShowcaseIcon } from "~/content/home";
import { StatList } from "./stat-list";

const icons = {
  itin: IdCard,
  fbar: Landmark,
  returns: FileText,
  w4: Wallet,
  extension: CalendarClock,
  planning: TrendingUp,
} satisfies Record<ShowcaseIcon, unknown>;

/** The six service pages as cards, with the firm's headline figures. */
export function ServicesShowcase() {
  return (
    <section aria-labelledby="services-heading" className="bg-surface py-16 sm:py-20">
      <Container>
        <SectionHeading
          id="services-heading"
          overline="Our services"
          title="US tax help for every step of your stay"
          lead="From your first tax number to planning the years ahead. Choose a service to see who needs it, what we do and what it costs."
        />
        <ul className="mt-12 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {showcaseServices.map((service) => {
            const Icon = icons[service.icon];
            return (
              <li
                key={service.path}
                className="group relative flex flex-col rounded-card border border-line bg-white p-6 shadow-card transition-colors focus-within:border-primary-500 hover:border-primary-500"
              >
                <span className="inline-flex size-12 items-center justify-center rounded-xl bg-primary-50 text-primary-700">
                  <Icon className="size-6" aria-hidden="true" />
                </span>
                <h3 className="mt-4 text-lg font-semibold text-ink">
                  {/* The whole card is the link's hit area. */}
                  <Link
                    to={service.path}
                    className="rounded-sm after:absolute after:inset-0 after:rounded-card focus-visible:outline-offset-4"
                  >
                    {service.name}
                  </Link>
                </h3>
                <p className="mt-2 flex-1 text-sm text-ink-soft">{service.summary}</p>
                <span
                  className="mt-4 inline-flex items-center gap-1 text-sm font-semibold text-primary-700 group-hover:underline"
                  aria-hidden="true"
                >
                  Learn more
                  <ArrowRight className="size-4 transition-transform group-hover:translate-x-0.5" />
                </span>
              </li>
            );
          })}
        </ul>
        <p className="mt-8 text-center text-ink-soft">
          Not sure whether you file Form 1040 or Form 1040-NR?{" "}
          <Link
            to={residencyTool.path}
            className="font-semibold text-primary-700 underline underline-offset-2 hover:text-primary-800"
          >
            Check your tax residency with our free calculator
          </Link>
          .
        </p>
        <div className="mt-12 rounded-3xl bg-primary-800 p-4 sm:p-6">
          <StatList stats={showcaseStats} tone="dark" className="sm:grid-cols-3" />
        </div>
      </Container>
    </section>
  );
}
