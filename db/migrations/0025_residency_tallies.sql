CREATE TABLE "residency_tallies" (
	"tax_year" integer NOT NULL,
	"residency_status" text,
	"first_year_open" boolean NOT NULL,
	"missing" boolean NOT NULL,
	"flagged" boolean NOT NULL,
	"cases" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "residency_tallies_year_idx" ON "residency_tallies" USING btree ("tax_year");--> statement-breakpoint
-- The tallies follow every change of client_cases one statement at a time, as case_tallies do
-- (migration 0010): one row per key whose count changed, writers only ever insert.
CREATE FUNCTION tally_residency() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO residency_tallies (tax_year, residency_status, first_year_open, missing, flagged, cases)
      SELECT tax_year, residency_status, residency_first_year_open, residency_missing, residency_flagged, count(*) FROM new_cases GROUP BY 1, 2, 3, 4, 5;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO residency_tallies (tax_year, residency_status, first_year_open, missing, flagged, cases)
      SELECT tax_year, residency_status, residency_first_year_open, residency_missing, residency_flagged, -count(*) FROM old_cases GROUP BY 1, 2, 3, 4, 5;
  ELSE
    INSERT INTO residency_tallies (tax_year, residency_status, first_year_open, missing, flagged, cases)
      SELECT tax_year, residency_status, first_year_open, missing, flagged, sum(d) FROM (
        SELECT tax_year, residency_status, residency_first_year_open AS first_year_open, residency_missing AS missing, residency_flagged AS flagged, 1 AS d FROM new_cases
        UNION ALL
        SELECT tax_year, residency_status, residency_first_year_open, residency_missing, residency_flagged, -1 AS d FROM old_cases
      ) AS moved
      GROUP BY 1, 2, 3, 4, 5 HAVING sum(d) <> 0;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER client_cases_residency_tally_insert AFTER INSERT ON client_cases
  REFERENCING NEW TABLE AS new_cases FOR EACH STATEMENT EXECUTE FUNCTION tally_residency();
--> statement-breakpoint
CREATE TRIGGER client_cases_residency_tally_update AFTER UPDATE ON client_cases
  REFERENCING OLD TABLE AS old_cases NEW TABLE AS new_cases FOR EACH STATEMENT EXECUTE FUNCTION tally_residency();
--> statement-breakpoint
CREATE TRIGGER client_cases_residency_tally_delete AFTER DELETE ON client_cases
  REFERENCING OLD TABLE AS old_cases FOR EACH STATEMENT EXECUTE FUNCTION tally_residency();
--> statement-breakpoint
CREATE FUNCTION tally_residency_emptied() RETURNS trigger AS $$
BEGIN
  DELETE FROM residency_tallies;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER client_cases_residency_tally_truncate AFTER TRUNCATE ON client_cases
  FOR EACH STATEMENT EXECUTE FUNCTION tally_residency_emptied();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION compact_tallies() RETURNS void AS $$
BEGIN
  WITH merged AS (
    DELETE FROM case_tallies
    WHERE (tax_year, current_stage, finalcopies) IN (
      SELECT tax_year, current_stage, finalcopies FROM case_tallies
      GROUP BY 1, 2, 3 HAVING count(*) > 1 OR sum(cases) = 0)
    RETURNING tax_year, current_stage, finalcopies, cases
  )
  INSERT INTO case_tallies (tax_year, current_stage, finalcopies, cases)
    SELECT tax_year, current_stage, finalcopies, sum(cases) FROM merged
    GROUP BY 1, 2, 3 HAVING sum(cases) <> 0;
  WITH merged AS (
    DELETE FROM client_tally WHERE (SELECT count(*) FROM client_tally) > 1 RETURNING clients
  )
  INSERT INTO client_tally (clients) SELECT sum(clients) FROM merged HAVING count(*) > 0;
  -- A few rows per year (its keys have a null status): merged whole, in one statement.
  WITH merged AS (
    DELETE FROM residency_tallies RETURNING tax_year, residency_status, first_year_open, missing, flagged, cases
  )
  INSERT INTO residency_tallies (tax_year, residency_status, first_year_open, missing, flagged, cases)
    SELECT tax_year, residency_status, first_year_open, missing, flagged, sum(cases) FROM merged
    GROUP BY 1, 2, 3, 4, 5 HAVING sum(cases) <> 0;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION recount_tallies() RETURNS void AS $$
BEGIN
  LOCK TABLE client_cases, "user" IN SHARE MODE;
  DELETE FROM case_tallies;
  INSERT INTO case_tallies (tax_year, current_stage, finalcopies, cases)
    SELECT tax_year, current_stage, finalcopies, count(*) FROM client_cases GROUP BY 1, 2, 3;
  DELETE FROM client_tally;
  INSERT INTO client_tally (clients) SELECT count(*) FROM "user" WHERE role = 'user';
  DELETE FROM residency_tallies;
  INSERT INTO residency_tallies (tax_year, residency_status, first_year_open, missing, flagged, cases)
    SELECT tax_year, residency_status, residency_first_year_open, residency_missing, residency_flagged, count(*) FROM client_cases GROUP BY 1, 2, 3, 4, 5;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
INSERT INTO residency_tallies (tax_year, residency_status, first_year_open, missing, flagged, cases)
  SELECT tax_year, residency_status, residency_first_year_open, residency_missing, residency_flagged, count(*) FROM client_cases GROUP BY 1, 2, 3, 4, 5;
