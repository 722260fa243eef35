import { sql } from "drizzle-orm";
import type { CaseProgress, StageKey } from "~/domain/workflow";
import { clientCases } from "~/server/db/schema";

// What a case's records of the return and the fee say happened (CaseProgress in
// domain/workflow.ts), as columns of a query on client_cases: the client's pages read them with
// the case itself, in the same query (docs/product/workflow.md#the-stage-the-client-reads).

// The case's own columns, qualified: a bare column in a select list of one table is written
// unqualified, which inside these subqueries would name the subquery's own table instead.
const client = sql`${clientCases.userId}`;
const year = sql`${clientCases.taxYear}`;

/** CaseProgress of the client_cases row a query reads, one boolean column each. */
export const caseProgressColumns = {
  draftSent: sql<boolean>`exists (select 1 from return_versions v where v.client_id = ${client} and v.tax_year = ${year})`,
  // The newest review of the current version (the newest) is an approval.
  draftApproved: sql<boolean>`coalesce((select r.decision = 'approved' from return_reviews r
    where r.version_id = (select v.id from return_versions v where v.client_id = ${client} and v.tax_year = ${year} order by v.number desc limit 1)
    order by r.created_at desc, r.id desc limit 1), false)`,
  feePaid: sql<boolean>`(exists (select 1 from invoices i where i.client_id = ${client} and i.tax_year = ${year} and i.status = 'paid')
    and not exists (select 1 from invoices i where i.client_id = ${client} and i.tax_year = ${year} and i.status in ('sent', 'partly-paid')))`,
  transmitted: sql<boolean>`exists (select 1 from efile_events e where e.client_id = ${client} and e.tax_year = ${year} and e.kind = 'transmitted')`,
  accepted: sql<boolean>`exists (select 1 from efile_events e where e.client_id = ${client} and e.tax_year = ${year} and e.kind = 'accepted'
    and e.jurisdiction = 'federal')`,
  finalCopiesReleased: sql<boolean>`exists (select 1 from final_copies f where f.client_id = ${client} and f.tax_year = ${year})`,
} satisfies Record<keyof CaseProgress, unknown>;

/** The case's eight stage flags, as columns of a select. */
export const stageFlagColumns = {
  home: clientCases.home,
  taxinfo: clientCases.taxinfo,
  documents: clientCases.documents,
  preparation: clientCases.preparation,
  draft: clientCases.draft,
  payment: clientCases.payment,
  efiling: clientCases.efiling,
  finalcopies: clientCases.finalcopies,
} satisfies Record<StageKey, unknown>;
