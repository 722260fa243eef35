import { Form, Link, useSubmit } from "react-router";
import { useFollowingState } from "~/components/hooks";
import { Select } from "~/components/portal/select-field";
import { Button } from "~/components/ui/button";
import { adminQueryString } from "~/domain/admin";
import type { AdminQuery } from "~/domain/admin";
import { RESIDENCY_FILTER_LABELS, RESIDENCY_FILTERS } from "~/domain/residency/filters";
import type { ResidencyFilter } from "~/domain/residency/filters";
import { RETURN_FILTER_LABELS, RETURN_FILTERS } from "~/domain/returns";
import type { ReturnFilter } from "~/domain/returns";
import { STAGES } from "~/domain/workflow";
import { ClientSearchInput } from "./client-search-input";

export type ClientFiltersProps = {
  query: AdminQuery;
  /** The tax years to choose from, newest first (the loader's `years`). */
  years?: readonly number[];
  /** How many of the year's cases each return filter keeps (shown beside each choice). */
  returnCounts?: Record<ReturnFilter, number>;
  /** How many of the year's cases each residency filter keeps (shown beside each choice). */
  residencyCounts?: Record<ResidencyFilter, number>;
};

/**
 * Tax year, search, stage filter, return filter and residency filter. A plain GET form, so the state lives in the
 * URL and works without JavaScript; with it, changing the year, the stage, the return or the residency filter
 * submits at once. A new search or year starts at page 1 and keeps the section.
 */
export function ClientFilters({ query, years = [], returnCounts, residencyCounts }: ClientFiltersProps) {
  const submit = useSubmit();
  // Back/forward and links change the URL: the inputs follow it.
  const [q, setQ] = useFollowingState(query.q);
  const [stage, setStage] = useFollowingState<string>(query.stage);
  const [returnFilter, setReturnFilter] = useFollowingState<string>(query.returnFilter);
  const [residencyFilter, setResidencyFilter] = useFollowingState<string>(query.residencyFilter);
  const [year, setYear] = useFollowingState(String(query.year));
  // The year in the URL is offered even when no case has it yet.
  const yearOptions = [...new Set([...years, query.year])].sort((a, b) => b - a);

  const filtered =
    query.q !== "" ||
    query.stage !== "all" ||
    query.returnFilter !== "all" ||
    query.residencyFilter !== "all";

  return (
    <Form
      method="get"
      action="/admin/dashboard"
      role="search"
      aria-label="Client search"
      className="grid gap-3 rounded-[var(--radius-card)] border border-line bg-white p-4 shadow-card sm:p-5 md:grid-cols-2 xl:grid-cols-3 2xl:grid-cols-[7rem_minmax(0,1fr)_12rem_15rem_15rem_auto] md:items-end"
    >
      <input type="hidden" name="section" value={query.section} />
      <div>
        <label htmlFor="client-year" className="mb-1.5 block text-sm font-medium text-ink">
          Tax year
        </label>
        <Select
          id="client-year"
          name="year"
          value={year}
          onChange={(event) => {
            setYear(event.currentTarget.value);
            void submit(event.currentTarget.form, { preventScrollReset: true });
          }}
        >
          {yearOptions.map((y) => (
            <option key={y} value={y}>
              {y}
            </option>
          ))}
        </Select>
      </div>
      <div>
        <label htmlFor="client-search" className="mb-1.5 block text-sm font-medium text-ink">
          Search clients
        </label>
        <ClientSearchInput
          id="client-search"
          name="q"
          value={q}
          onChange={(event) => setQ(event.currentTarget.value)}
          placeholder="Search by name, email, client ID or assignee"
        />
      </div>
      <div>
        <label htmlFor="client-stage" className="mb-1.5 block text-sm font-medium text-ink">
          Filter by stage
        </label>
        <Select
          id="client-stage"
          name="stage"
          value={stage}
          onChange={(event) => {
            setStage(event.currentTarget.value);
            void submit(event.currentTarget.form, { preventScrollReset: true });
          }}
        >
          <option value="all">All Stages</option>
          {STAGES.map((s) => (
            <option key={s.key} value={s.key}>
              {s.label}
            </option>
          ))}
        </Select>
      </div>
      <div>
        <label htmlFor="client-return" className="mb-1.5 block text-sm font-medium text-ink">
          Filter by return
        </label>
        <Select
          id="client-return"
          name="return"
          value={returnFilter}
          onChange={(event) => {
            setReturnFilter(event.currentTarget.value);
            void submit(event.currentTarget.form, { preventScrollReset: true });
          }}
        >
          <option value="all">All Returns</option>
          {RETURN_FILTERS.map((f) => (
            <option key={f} value={f}>
              {returnCounts ? `${RETURN_FILTER_LABELS[f]} (${returnCounts[f]})` : RETURN_FILTER_LABELS[f]}
            </option>
          ))}
        </Select>
      </div>
      <div>
        <label htmlFor="client-residency" className="mb-1.5 block text-sm font-medium text-ink">
          Residency
        </label>
        <Select
          id="client-residency"
          name="residency"
          value={residencyFilter}
          onChange={(event) => {
            setResidencyFilter(event.currentTarget.value);
            void submit(event.currentTarget.form, { preventScrollReset: true });
          }}
        >
          <option value="all">All Residencies</option>
          {RESIDENCY_FILTERS.map((f) => (
            <option key={f} value={f}>
              {residencyCounts
                ? `${RESIDENCY_FILTER_LABELS[f]} (${residencyCounts[f]})`
                : RESIDENCY_FILTER_LABELS[f]}
            </option>
          ))}
        </Select>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" className="h-[2.875rem]">
          Search
        </Button>
        {filtered ? (
          <Link
            to={`/admin/dashboard${adminQueryString(query, { q: "", stage: "all", returnFilter: "all", residencyFilter: "all", page: 1 })}`}
            className="inline-flex min-h-11 items-center rounded-md px-1 text-sm font-semibold text-primary-700 underline-offset-2 hover:underline sm:min-h-0"
          >
            Clear filters
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
