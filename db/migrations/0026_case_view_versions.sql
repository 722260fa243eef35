CREATE TABLE "case_view_versions" (
	"client_id" text NOT NULL,
	"tax_year" integer NOT NULL,
	"version" bigint NOT NULL,
	CONSTRAINT "case_view_versions_client_id_tax_year_pk" PRIMARY KEY("client_id","tax_year")
);
--> statement-breakpoint
-- Each case's view version (app/server/db/schema.ts caseViewVersions): every statement that
-- changes a row the client's filing page shows gives the row's case a new number from one
-- sequence, so a number is never taken twice, even by a case deleted and made again. The triggers
-- are statement-level (transition tables): a load of many rows touches each case once. Cases are
-- touched in the order of their keys, so two statements touching the same cases wait for each
-- other instead of deadlocking.
CREATE SEQUENCE "case_view_version_seq";
--> statement-breakpoint
CREATE FUNCTION case_view_bump(clients text[], years integer[]) RETURNS void AS $$
  INSERT INTO case_view_versions (client_id, tax_year, version)
    SELECT k.c, k.y, nextval('case_view_version_seq')
    FROM (SELECT DISTINCT c, y FROM unnest(clients, years) AS u(c, y) WHERE c IS NOT NULL AND y IS NOT NULL ORDER BY c, y) AS k
  ON CONFLICT (client_id, tax_year) DO UPDATE SET version = excluded.version;
$$ LANGUAGE sql;
--> statement-breakpoint
-- Rows that name their case (client_id, tax_year).
CREATE FUNCTION case_view_touch_case_rows() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN PERFORM case_view_bump(array_agg(client_id), array_agg(tax_year)) FROM new_rows; END IF;
  IF TG_OP <> 'INSERT' THEN PERFORM case_view_bump(array_agg(client_id), array_agg(tax_year)) FROM old_rows; END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- The case itself and its taxpayer record (user_id, tax_year).
CREATE FUNCTION case_view_touch_user_rows() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN PERFORM case_view_bump(array_agg(user_id), array_agg(tax_year)) FROM new_rows; END IF;
  IF TG_OP <> 'INSERT' THEN PERFORM case_view_bump(array_agg(user_id), array_agg(tax_year)) FROM old_rows; END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Rows of a signature request (request_id).
CREATE FUNCTION case_view_touch_request_rows() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    PERFORM case_view_bump(array_agg(q.client_id), array_agg(q.tax_year)) FROM new_rows r JOIN signature_requests q ON q.id = r.request_id;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM case_view_bump(array_agg(q.client_id), array_agg(q.tax_year)) FROM old_rows r JOIN signature_requests q ON q.id = r.request_id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- A signer's hand-signed uploads (signer_id).
CREATE FUNCTION case_view_touch_signer_rows() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    PERFORM case_view_bump(array_agg(q.client_id), array_agg(q.tax_year))
      FROM new_rows r JOIN signature_signers s ON s.id = r.signer_id JOIN signature_requests q ON q.id = s.request_id;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM case_view_bump(array_agg(q.client_id), array_agg(q.tax_year))
      FROM old_rows r JOIN signature_signers s ON s.id = r.signer_id JOIN signature_requests q ON q.id = s.request_id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- An invoice's lines and payments (invoice_id).
CREATE FUNCTION case_view_touch_invoice_rows() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    PERFORM case_view_bump(array_agg(i.client_id), array_agg(i.tax_year)) FROM new_rows r JOIN invoices i ON i.id = r.invoice_id;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM case_view_bump(array_agg(i.client_id), array_agg(i.tax_year)) FROM old_rows r JOIN invoices i ON i.id = r.invoice_id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- A payment's refunds (payment_id).
CREATE FUNCTION case_view_touch_payment_rows() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    PERFORM case_view_bump(array_agg(i.client_id), array_agg(i.tax_year))
      FROM new_rows r JOIN payments p ON p.id = r.payment_id JOIN invoices i ON i.id = p.invoice_id;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM case_view_bump(array_agg(i.client_id), array_agg(i.tax_year))
      FROM old_rows r JOIN payments p ON p.id = r.payment_id JOIN invoices i ON i.id = p.invoice_id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- A client's profile (their stage e-mail setting): every case of theirs.
CREATE FUNCTION case_view_touch_profile_rows() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    PERFORM case_view_bump(array_agg(c.user_id), array_agg(c.tax_year)) FROM new_rows p JOIN client_cases c ON c.user_id = p.id;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM case_view_bump(array_agg(c.user_id), array_agg(c.tax_year)) FROM old_rows p JOIN client_cases c ON c.user_id = p.id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- The firm's settings (whether final copies wait for payment): the row of client "" and year 0.
CREATE FUNCTION case_view_touch_firm_settings() RETURNS trigger AS $$
BEGIN
  PERFORM case_view_bump(ARRAY[''], ARRAY[0]);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DO $$
DECLARE
  shapes text[][] := ARRAY[
    ['client_cases', 'case_view_touch_user_rows'],
    ['taxpayer_records', 'case_view_touch_user_rows'],
    ['documents', 'case_view_touch_case_rows'],
    ['document_requests', 'case_view_touch_case_rows'],
    ['return_versions', 'case_view_touch_case_rows'],
    ['return_reviews', 'case_view_touch_case_rows'],
    ['signature_requests', 'case_view_touch_case_rows'],
    ['signatures', 'case_view_touch_case_rows'],
    ['id_checks', 'case_view_touch_case_rows'],
    ['efile_events', 'case_view_touch_case_rows'],
    ['final_copies', 'case_view_touch_case_rows'],
    ['invoices', 'case_view_touch_case_rows'],
    ['signature_signers', 'case_view_touch_request_rows'],
    ['signature_request_events', 'case_view_touch_request_rows'],
    ['handwritten_uploads', 'case_view_touch_signer_rows'],
    ['invoice_lines', 'case_view_touch_invoice_rows'],
    ['payments', 'case_view_touch_invoice_rows'],
    ['refunds', 'case_view_touch_payment_rows'],
    ['profiles', 'case_view_touch_profile_rows']
  ];
  shape text[];
BEGIN
  FOREACH shape SLICE 1 IN ARRAY shapes LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION %I()', shape[1] || '_view_insert', shape[1], shape[2]);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION %I()', shape[1] || '_view_update', shape[1], shape[2]);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION %I()', shape[1] || '_view_delete', shape[1], shape[2]);
  END LOOP;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER firm_settings_view AFTER INSERT OR UPDATE OR DELETE ON firm_settings
  FOR EACH STATEMENT EXECUTE FUNCTION case_view_touch_firm_settings();
