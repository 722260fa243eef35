import { Award, Clock, MessagesSquare, Receipt } from "lucide-react";
import { Container } from "~/components/ui/container";
import { highlights } from "~/content/home";
import type { HighlightIcon } from "~/content/home";

const icons = {
  consultation: MessagesSquare,
  licensed: Award,
  response: Clock,
  fees: Receipt,
} satisfies Record<HighlightIcon, unknown>;

/** Four short facts a new client wants to know first. */
export function Highlights() {
  return (
    <section aria-labelledby="highlights-heading" className="py-14 sm:py-16">
      <Container>
        <h2 id="highlights-heading" className="sr-only">
          What to expect when you work with us
        </h2>
        <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {highlights.map((item) => {
            const Icon = icons[item.icon];
            return (
              <li key={item.title} className="rounded-card border border-line bg-white p-6 shadow-card">
                <span className="inline-flex size-11 items-center justify-center rounded-xl bg-primary-50 text-primary-700">
                  <Icon className="size-6" aria-hidden="true" />
                </span>
                <h3 className="mt-4 text-lg font-semibold text-ink">{item.title}</h3>
                <p className="mt-2 text-sm text-ink-soft">{item.text}</p>
              </li>
            );
          })}
        </ul>
      </Container>
    </section>
  );
}
