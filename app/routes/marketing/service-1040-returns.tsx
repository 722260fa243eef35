import type { Route } from "./+types/service-1040-returns";
import { ServicePage } from "~/components/marketing/service-page";
import { getStandardServiceDetail } from "~/content/service-details";
import { seo } from "~/seo";

const detail = getStandardServiceDetail("1040-returns");

export const meta: Route.MetaFunction = (args) => seo(args, detail.seo);

export default function Returns1040Page() {
  return <ServicePage detail={detail} />;
}
