import { Globe } from "lucide-react";
import { Link } from "react-router";
import { FilingPanel } from "~/components/portal/filing-panel";
import { RESIDENCY_CLIENT_TEXTS as T } from "~/domain/residency/client";
import type { ClientResidency } from "~/domain/residency/client";

/** The filing page's residency: each person's outcome in plain words, what is missing, the choices and points to know. */
export function ResidencyPanel({ taxYear, residency }: { taxYear: number; residency: ClientResidency | null }) {
  return (
    <FilingPanel id="residency-title" anchor="residency" title={T.title(taxYear)} icon={<Globe className="size-5" aria-hidden="true" />}>
      {residency === null ? (
        <div className="space-y-4">
          <p className="text-ink-soft">{T.none(taxYear)}</p>
          <Link to="/my-residency" className="font-semibold text-primary-700 underline underline-offset-2 hover:text-primary-800">
            {T.start}
          </Link>
        </div>
      ) : (
        <div className="space-y-5">
          <ul className="space-y-3">
            {residency.people.map((person) => (
              <li key={person.key} className="text-ink">
                {person.summary}
              </li>
            ))}
          </ul>
          <p className="text-sm text-ink-soft">{residency.confirmed ? T.confirmed : T.unconfirmed}</p>
          <Points title={T.missing} items={residency.people.flatMap((p) => p.missing)} />
          <Points title={T.choices} items={residency.people.flatMap((p) => p.choices)} />
          <Points title={T.flags} items={residency.people.flatMap((p) => p.flags)} />
          <Link to="/my-residency" className="inline-block font-semibold text-primary-700 underline underline-offset-2 hover:text-primary-800">
            {T.edit}
          </Link>
        </div>
      )}
    </FilingPanel>
  );
}

function Points({ title, items }: { title: string; items: string[] }) {
  if (items.length === 0) return null;
  return (
    <div>
      <h3 className="font-semibold text-ink">{title}</h3>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-ink-soft">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </div>
  );
}
