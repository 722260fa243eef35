import type { Route } from "./+types/service-1040-returns";
import { ServicePage } from "~/components/marketing/service-page";
import { getStandardServiceDetail } from "~/content/service-details";
import { seo } from "~/seo";

/** A public page: server-rendered, no React in the browser (docs/decisions/0008). */
export const handle = { hydrate: false };

const detail = getStandardServiceDetail("1040-returns");

export const meta: Route.MetaFunction = (args) => seo(args, detail.seo);

export default function Returns1040Page() {
  return <ServicePage detail={detail} />;
}
