import { ChevronLeft, ChevronRight } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";

type PageItem = number | "gap";

/** 1 … 4 5 6 … 12: the first and last pages, the current one and its neighbours. */
export function pageItems(current: number, count: number): PageItem[] {
  if (count <= 7) return Array.from({ length: count }, (_, i) => i + 1);
  const pages = [...new Set([1, current - 1, current, current + 1, count])]
    .filter((p) => p >= 1 && p <= count)
    .sort((a, b) => a - b);
  const items: PageItem[] = [];
  let previous = 0;
  for (const p of pages) {
    if (p - previous === 2) items.push(p - 1);
    else if (p - previous > 2) items.push("gap");
    items.push(p);
    previous = p;
  }
  return items;
}

const itemBase =
  "inline-flex min-h-11 min-w-11 items-center justify-center gap-1 rounded-lg border px-3 text-sm font-semibold";
const linkStyle = `${itemBase} border-line bg-white text-primary-700 hover:border-primary-600 hover:bg-primary-50`;
const currentStyle = `${itemBase} border-primary-600 bg-primary-600 text-white`;
const disabledStyle = `${itemBase} cursor-not-allowed border-line bg-surface text-ink-muted`;

/** Previous or Next: a link, or a disabled look on the first or last page. */
function PageLink({ to, enabled, children }: { to: string; enabled: boolean; children: ReactNode }) {
  if (!enabled)
    return (
      <span className={disabledStyle} role="link" aria-disabled="true">
        {children}
      </span>
    );
  return (
    <Link to={to} className={linkStyle}>
      {children}
    </Link>
  );
}

export type PaginationProps = {
  /** The page shown (1 for the first). */
  page: number;
  pageCount: number;
  /** The URL of a page, keeping the list's filters. */
  href: (page: number) => string;
};

/** Previous / page numbers / Next, as links that keep the list's filters. */
export function Pagination({ page, pageCount, href }: PaginationProps) {
  const count = Math.max(pageCount, 1);
  const current = Math.min(Math.max(page, 1), count);

  return (
    <nav aria-label="Pagination">
      <ul className="flex flex-wrap items-center gap-1.5">
        <li>
          <PageLink to={href(current - 1)} enabled={current > 1}>
            <ChevronLeft className="size-4" aria-hidden="true" />
            Previous
          </PageLink>
        </li>
        {pageItems(current, count).map((item, i) =>
          item === "gap" ? (
            <li key={`gap-${i}`} className="px-1 text-ink-muted" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={item}>
              {item === current ? (
                <Link
                  to={href(item)}
                  className={currentStyle}
                  aria-current="page"
                  aria-label={`Page ${item}`}
                >
                  {item}
                </Link>
              ) : (
                <Link to={href(item)} className={linkStyle} aria-label={`Page ${item}`}>
                  {item}
                </Link>
              )}
            </li>
          ),
        )}
        <li>
          <PageLink to={href(current + 1)} enabled={current < count}>
            Next
            <ChevronRight className="size-4" aria-hidden="true" />
          </PageLink>
        </li>
      </ul>
    </nav>
  );
}
