CREATE TABLE "case_tallies" (
	"tax_year" integer NOT NULL,
	"current_stage" text NOT NULL,
	"finalcopies" boolean NOT NULL,
	"cases" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_tally" (
	"clients" bigint NOT NULL
);
--> statement-breakpoint
-- The counters read the tallies now; this index served only them.
DROP INDEX "client_cases_counters_idx";--> statement-breakpoint
CREATE INDEX "case_tallies_year_idx" ON "case_tallies" USING btree ("tax_year");--> statement-breakpoint
-- The tallies follow every change of client_cases and "user" (roles), one statement at a time:
-- statement-level triggers read the statement's rows before and after (transition tables) and
-- add one row per key whose count changed, so a load of many rows adds a few rows, not one per
-- row. Writers only ever insert here: no row is locked, no transaction waits for another.
CREATE FUNCTION tally_cases() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO case_tallies (tax_year, current_stage, finalcopies, cases)
      SELECT tax_year, current_stage, finalcopies, count(*) FROM new_cases GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO case_tallies (tax_year, current_stage, finalcopies, cases)
      SELECT tax_year, current_stage, finalcopies, -count(*) FROM old_cases GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO case_tallies (tax_year, current_stage, finalcopies, cases)
      SELECT tax_year, current_stage, finalcopies, sum(d) FROM (
        SELECT tax_year, current_stage, finalcopies, 1 AS d FROM new_cases
        UNION ALL
        SELECT tax_year, current_stage, finalcopies, -1 AS d FROM old_cases
      ) AS moved
      GROUP BY 1, 2, 3 HAVING sum(d) <> 0;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER client_cases_tally_insert AFTER INSERT ON client_cases
  REFERENCING NEW TABLE AS new_cases FOR EACH STATEMENT EXECUTE FUNCTION tally_cases();
--> statement-breakpoint
CREATE TRIGGER client_cases_tally_update AFTER UPDATE ON client_cases
  REFERENCING OLD TABLE AS old_cases NEW TABLE AS new_cases FOR EACH STATEMENT EXECUTE FUNCTION tally_cases();
--> statement-breakpoint
CREATE TRIGGER client_cases_tally_delete AFTER DELETE ON client_cases
  REFERENCING OLD TABLE AS old_cases FOR EACH STATEMENT EXECUTE FUNCTION tally_cases();
--> statement-breakpoint
CREATE FUNCTION tally_clients() RETURNS trigger AS $$
DECLARE
  delta bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT count(*) INTO delta FROM new_users WHERE role = 'user';
  ELSIF TG_OP = 'DELETE' THEN
    SELECT -count(*) INTO delta FROM old_users WHERE role = 'user';
  ELSE
    SELECT (SELECT count(*) FROM new_users WHERE role = 'user') - (SELECT count(*) FROM old_users WHERE role = 'user') INTO delta;
  END IF;
  IF delta <> 0 THEN
    INSERT INTO client_tally (clients) VALUES (delta);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER user_tally_insert AFTER INSERT ON "user"
  REFERENCING NEW TABLE AS new_users FOR EACH STATEMENT EXECUTE FUNCTION tally_clients();
--> statement-breakpoint
CREATE TRIGGER user_tally_update AFTER UPDATE ON "user"
  REFERENCING OLD TABLE AS old_users NEW TABLE AS new_users FOR EACH STATEMENT EXECUTE FUNCTION tally_clients();
--> statement-breakpoint
CREATE TRIGGER user_tally_delete AFTER DELETE ON "user"
  REFERENCING OLD TABLE AS old_users FOR EACH STATEMENT EXECUTE FUNCTION tally_clients();
--> statement-breakpoint
-- Emptying a table empties its tallies.
CREATE FUNCTION tally_cases_emptied() RETURNS trigger AS $$
BEGIN
  DELETE FROM case_tallies;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER client_cases_tally_truncate AFTER TRUNCATE ON client_cases
  FOR EACH STATEMENT EXECUTE FUNCTION tally_cases_emptied();
--> statement-breakpoint
CREATE FUNCTION tally_clients_emptied() RETURNS trigger AS $$
BEGIN
  DELETE FROM client_tally;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER user_tally_truncate AFTER TRUNCATE ON "user"
  FOR EACH STATEMENT EXECUTE FUNCTION tally_clients_emptied();
--> statement-breakpoint
-- Merges each key's rows into one (and drops keys that add up to nothing), each table in one
-- statement: a reader sees the rows before or after, which add up to the same. Rows added
-- meanwhile are not seen by the statement, so they stay as they are. Run on a schedule.
CREATE FUNCTION compact_tallies() RETURNS void AS $$
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
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Counts everything again from the rows themselves: after a load made without triggers (the
-- benchmark's bulk seed), or to check the tallies. Writers wait meanwhile, so nothing changes
-- between the count and the tallies it replaces.
CREATE FUNCTION recount_tallies() RETURNS void AS $$
BEGIN
  LOCK TABLE client_cases, "user" IN SHARE MODE;
  DELETE FROM case_tallies;
  INSERT INTO case_tallies (tax_year, current_stage, finalcopies, cases)
    SELECT tax_year, current_stage, finalcopies, count(*) FROM client_cases GROUP BY 1, 2, 3;
  DELETE FROM client_tally;
  INSERT INTO client_tally (clients) SELECT count(*) FROM "user" WHERE role = 'user';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
SELECT recount_tallies();
