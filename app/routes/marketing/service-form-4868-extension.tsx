import type { Route } from "./+types/service-form-4868-extension";
import { ServicePage } from "~/components/marketing/service-page";
import { getStandardServiceDetail } from "~/content/service-details";
import { seo } from "~/seo";

const detail = getStandardServiceDetail("form-4868-extension");

export const meta: Route.MetaFunction = (args) => seo(args, detail.seo);

export default function Form4868ExtensionPage() {
  return <ServicePage detail={detail} />;
}
