import type { Route } from "./+types/service-itin-processing";
import { ItinServicePage } from "~/components/marketing/service-itin-page";
import { itinDetail } from "~/content/service-details";
import { seo } from "~/seo";

export const meta: Route.MetaFunction = (args) => seo(args, itinDetail.seo);

export default function ItinProcessingPage() {
  return <ItinServicePage detail={itinDetail} />;
}
