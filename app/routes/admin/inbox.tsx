import { data, useLoaderData } from "react-router";
import type { Route } from "./+types/inbox";
import { InboxList } from "~/components/messages/inbox-list";
import { parseInboxQuery } from "~/domain/messages";
import { currentFilingYear } from "~/domain/tax-year";
import { seo } from "~/seo";
import { caseYears } from "~/server/clients/list.server";
import { worksOutsideUs } from "~/server/consents/outside-us.server";
import { listInbox } from "~/server/messages/inbox.server";
import { staffUnreadByYear } from "~/server/messages/unread.server";
import { NO_STORE, staffContext } from "~/server/auth/session.server";

export const meta: Route.MetaFunction = (args) =>
  seo(args, { title: "Client messages", description: "Conversations with clients about their cases.", noindex: true });

export function headers() {
  return NO_STORE;
}

/**
 * The year's conversations, newest activity first, a page at a time: all of them, the ones with
 * messages no staff member has opened, or the ones whose client has waited more than two
 * business days for a reply (?filter=unread|waiting, ?year=, ?page=).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = context.get(staffContext);
  const query = parseInboxQuery(new URL(request.url).searchParams);
  // Staff who work outside the United States see only the conversations of clients whose consent to disclose is in force.
  const [found, unreadByYear, years] = await Promise.all([listInbox(query, new Date(), (await worksOutsideUs(staff.id)) ? staff.id : undefined), staffUnreadByYear(), caseYears()]);
  const offered = [...new Set([...years, currentFilingYear(), query.year])].sort((a, b) => b - a);
  return data(
    {
      query: { ...query, page: found.page },
      rows: found.rows,
      matching: found.matching,
      pageCount: found.pageCount,
      years: offered,
      unreadByYear: Object.fromEntries(unreadByYear) as Record<number, number>,
    },
    { headers: NO_STORE },
  );
}

export default function AdminInbox() {
  const d = useLoaderData<typeof loader>();
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-bold tracking-tight">Client messages</h1>
        <p className="mt-1 max-w-[70ch] text-sm text-ink-muted">
          {`Conversations with clients about their ${d.query.year} cases, newest first. Not the contact form: those are under Contact form.`}
        </p>
      </header>
      <InboxList
        query={d.query}
        rows={d.rows}
        matching={d.matching}
        pageCount={d.pageCount}
        years={d.years}
        unreadByYear={d.unreadByYear}
      />
    </div>
  );
}
