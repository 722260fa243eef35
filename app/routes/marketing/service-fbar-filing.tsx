import type { Route } from "./+types/service-fbar-filing";
import { ServicePage } from "~/components/marketing/service-page";
import { getStandardServiceDetail } from "~/content/service-details";
import { seo } from "~/seo";

/** A public page: server-rendered, no React in the browser (docs/decisions/0008). */
export const handle = { hydrate: false };

const detail = getStandardServiceDetail("fbar-filing");

export const meta: Route.MetaFunction = (args) => seo(args, detail.seo);

export default function FbarFilingPage() {
  return <ServicePage detail={detail} />;
}
