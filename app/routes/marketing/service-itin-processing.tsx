import type { Route } from "./+types/service-itin-processing";
import { ItinServicePage } from "~/components/marketing/service-itin-page";
import { itinDetail } from "~/content/service-details";
import { seo } from "~/seo";

/** A public page: server-rendered, no React in the browser (docs/decisions/0008). */
export const handle = { hydrate: false };

export const meta: Route.MetaFunction = (args) => seo(args, itinDetail.seo);

export default function ItinProcessingPage() {
  return <ItinServicePage detail={itinDetail} />;
}
