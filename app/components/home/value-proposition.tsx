import { CalendarCheck, Globe, Handshake, MessageCircle, ShieldCheck, Users } from "lucide-react";
import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { Container } from "~/components/ui/container";
import { valueProposition } from "~/content/home";
import type { ValueIcon } from "~/content/home";

const icons = {
  crossBorder: Globe,
  security: ShieldCheck,
  plain: MessageCircle,
  deadlines: CalendarCheck,
  team: Users,
  honest: Handshake,
} satisfies Record<ValueIcon, unknown>;

/** Why an international client picks this firm. */
export function ValueProposition() {
  return (
    <section aria-labelledby="value-heading" className="py-16 sm:py-20">
      <Container className="grid grid-cols-[minmax(0,1fr)] gap-12 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
        <div>
          <p className="text-sm font-semibold tracking-wide text-primary-700 uppercase">
            {valueProposition.overline}
          </p>
          <h2 id="value-heading" className="mt-2 text-3xl font-bold tracking-tight text-ink sm:text-4xl">
            {valueProposition.title}
          </h2>
          <p className="mt-4 text-lg text-ink-soft">{valueProposition.lead}</p>
          <Link to="/about" className={buttonClass("secondary", "md", "mt-8")}>
            How we work
          </Link>
        </div>
        <ul className="grid gap-x-8 gap-y-10 sm:grid-cols-2">
          {valueProposition.points.map((point) => {
            const Icon = icons[point.icon];
            return (
              <li key={point.title} className="flex gap-4">
                <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-full bg-primary-700 text-white">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <div>
                  <h3 className="text-lg font-semibold text-ink">{point.title}</h3>
                  <p className="mt-1.5 text-ink-soft">{point.text}</p>
                </div>
              </li>
            );
          })}
        </ul>
      </Container>
    </section>
  );
}
