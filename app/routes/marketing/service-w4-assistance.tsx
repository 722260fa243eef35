import type { Route } from "./+types/service-w4-assistance";
import { ServicePage } from "~/components/marketing/service-page";
import { getStandardServiceDetail } from "~/content/service-details";
import { seo } from "~/seo";

const detail = getStandardServiceDetail("w4-assistance");

export const meta: Route.MetaFunction = (args) => seo(args, detail.seo);

export default function W4AssistancePage() {
  return <ServicePage detail={detail} />;
}
