import { data, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/my-tax-filing";
import { FilingsList } from "~/components/portal/filings-list";
import { Container } from "~/components/ui/container";
import type { FilingView } from "~/domain/portal";
import { logError } from "~/log";
import { seo } from "~/seo";
import { NO_STORE, userContext } from "~/server/session.server";
import { listOwnFilings } from "~/server/taxpayer.server";

export const meta: Route.MetaFunction = (args) =>
  seo(args, { title: "My Tax Filings", description: "Your tax filings with TaxBridge.", noindex: true });

export function headers() {
  return NO_STORE;
}

export async function loader({ context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  let filings: FilingView[] = [];
  try {
    filings = await listOwnFilings(user.id);
  } catch (error) {
    // Spec: a load error is logged only; the list stays empty.
    logError("portal", "could not load filings", error);
  }
  return data({ filings }, { headers: NO_STORE });
}

export default function MyTaxFiling() {
  const { filings } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location?.pathname === "/my-tax-filing";
  return (
    <main id="main" className="bg-surface py-10 sm:py-14">
      <Container className="max-w-5xl">
        <h1 className="text-3xl font-bold tracking-tight">My Tax Filings</h1>
        <p className="mt-2 text-ink-soft">The taxpayer information you have sent us, and where each filing stands.</p>
        <div className="mt-8">
          <FilingsList filings={filings} loading={loading} />
        </div>
      </Container>
    </main>
  );
}
