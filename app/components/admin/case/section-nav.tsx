import { NavLink } from "react-router";
import { caseHref } from "~/domain/admin-links";
import { CASE_SECTIONS } from "~/domain/case-sections";

/**
 * The case's sections (domain/case-sections.ts), each a link to its own address: the browser's
 * Back returns to the section before. The current one is marked (aria-current="page"); the list
 * the case was opened from (`back`) goes along.
 */
export function CaseSectionNav({ clientId, taxYear, back }: { clientId: string; taxYear: number; back: string }) {
  return (
    <nav aria-label="Sections of this case" className="-mx-1 overflow-x-auto px-1 pb-1">
      <ul className="flex min-w-max gap-1 border-b border-line">
        {CASE_SECTIONS.map((section) => (
          <li key={section.key}>
            <NavLink
              to={caseHref(clientId, taxYear, back, section.key)}
              end
              className={({ isActive }) =>
                `-mb-px inline-flex min-h-11 items-center border-b-2 px-3 text-sm font-semibold whitespace-nowrap transition-colors ${
                  isActive
                    ? "border-primary-600 text-primary-700"
                    : "border-transparent text-ink-soft hover:border-line hover:text-primary-700"
                }`
              }
            >
              {section.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
