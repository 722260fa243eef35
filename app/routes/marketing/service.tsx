import { data, useLocation } from "react-router";
import type { Route } from "./+types/service";
import { ServicePage } from "~/components/marketing/service-page";
import { ItinServicePage } from "~/components/marketing/service-itin-page";
import { serviceDetails } from "~/content/service-details";
import type { ServiceDetail } from "~/content/service-details";
import { servicePages } from "~/content/service-pages";
import { seo } from "~/seo";

// The six service pages: app/routes.ts gives each page of the service list its own route to this
// module, which draws the page of the path it answers.

/** A public page: server-rendered, no React in the browser (docs/decisions/0008). */
export const handle = { hydrate: false };

/** The content of the service page at `pathname`. */
function detailAt(pathname: string): ServiceDetail {
  const page = servicePages.find((s) => s.path === pathname.replace(/\/+$/, ""));
  if (!page) throw data(null, { status: 404 });
  return serviceDetails[page.slug];
}

export const meta: Route.MetaFunction = (args) => seo(args, detailAt(args.location.pathname).seo);

export default function ServiceDetailPage() {
  const detail = detailAt(useLocation().pathname);
  return detail.kind === "itin" ? <ItinServicePage detail={detail} /> : <ServicePage detail={detail} />;
}
