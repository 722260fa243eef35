import type { Route } from "./+types/service-fbar-filing";
import { ServicePage } from "~/components/marketing/service-page";
import { getStandardServiceDetail } from "~/content/service-details";
import { seo } from "~/seo";

const detail = getStandardServiceDetail("fbar-filing");

export const meta: Route.MetaFunction = (args) => seo(args, detail.seo);

export default function FbarFilingPage() {
  return <ServicePage detail={detail} />;
}
