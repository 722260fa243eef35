import { ChevronRight } from "lucide-react";
import { Fragment } from "react";
import { Link } from "react-router";

export type Crumb = { label: string; to: string };

/** "Home › … › this page": the links above a page's h1, the last item being the page itself. */
export function Breadcrumbs({ trail, current }: { trail: Crumb[]; current: string }) {
  return (
    <nav aria-label="Breadcrumb">
      <ol className="flex flex-wrap items-center gap-1 text-sm text-ink-muted">
        {trail.map((crumb) => (
          <Fragment key={crumb.to}>
            <li>
              <Link to={crumb.to} className="rounded hover:text-primary-700 hover:underline">
                {crumb.label}
              </Link>
            </li>
            <li aria-hidden="true">
              <ChevronRight className="size-4" />
            </li>
          </Fragment>
        ))}
        <li>
          <span aria-current="page" className="font-medium text-ink-soft">
            {current}
          </span>
        </li>
      </ol>
    </nav>
  );
}
