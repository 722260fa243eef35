/**
 * The enhancement module of the public pages (docs/decisions/0008-zero-js-public-pages.md).
 * Those pages are server-rendered HTML that load neither React nor React Router; this module
 * binds their few interactive widgets, each marked `data-enhance="<name>"`, then marks the
 * page interactive (`html[data-hydrated]`). Signed-in pages never load it: React binds the
 * same widgets there (app/components/use-enhancement.ts).
 */
import { bindAccordion } from "./accordion";
import { bindCarousel } from "./carousel";
import { bindContactForm } from "./contact-form";
import { bindDialog } from "./dialog";
import { ENHANCE, HYDRATED, read, sel } from "./contract";
import type { Widget } from "./contract";
import type { Binder } from "./dom";
import { bindHeader } from "./header";
import { bindPayButton } from "./payment";
import { bindResidency } from "./residency";
import { bindTabs } from "./tabs";

const binders: Record<Widget, Binder> = {
  header: bindHeader,
  carousel: bindCarousel,
  "pay-button": bindPayButton,
  accordion: bindAccordion,
  tabs: bindTabs,
  "contact-form": (form) => bindContactForm(form, { inPlace: true }),
  dialog: bindDialog,
  residency: (root) => bindResidency(root, { inPlace: true }),
};

const isWidget = (name: string | undefined): name is Widget =>
  name !== undefined && Object.hasOwn(binders, name);

for (const el of document.querySelectorAll<HTMLElement>(sel(ENHANCE))) {
  const name = read(el, ENHANCE);
  if (!isWidget(name)) continue;
  const bind = binders[name];
  try {
    bind(el);
  } catch (error) {
    // One broken widget must not keep the others from working.
    console.error(error);
  }
}
document.documentElement.setAttribute(HYDRATED, "true");
