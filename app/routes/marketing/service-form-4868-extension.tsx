import type { Route } from "./+types/service-form-4868-extension";
import { ServicePage } from "~/components/marketing/service-page";
import { getStandardServiceDetail } from "~/content/service-details";
import { seo } from "~/seo";

/** A public page: server-rendered, no React in the browser (docs/decisions/0008). */
export const handle = { hydrate: false };

const detail = getStandardServiceDetail("form-4868-extension");

export const meta: Route.MetaFunction = (args) => seo(args, detail.seo);

export default function Form4868ExtensionPage() {
  return <ServicePage detail={detail} />;
}
