-- hand-written
-- The version of a table as lists count it (list/count-cache.ts): the number of statements that have
-- changed it, as a snapshot sees them. Every such statement appends a row to muster_list_change (no
-- writer waits for another: appends take no lock two writers share); now and then one of them folds
-- the rows into muster_list_version, the sum unchanged, under an advisory lock it only tries.
CREATE TABLE "muster_list_version" ("tbl" text PRIMARY KEY, "n" bigint NOT NULL)
--> statement-breakpoint
CREATE TABLE "muster_list_change" ("id" bigserial PRIMARY KEY, "tbl" text NOT NULL)
--> statement-breakpoint
CREATE INDEX "muster_list_change_tbl_idx" ON "muster_list_change" ("tbl")
--> statement-breakpoint
CREATE FUNCTION muster_list_changed() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  appended bigint;
BEGIN
  INSERT INTO muster_list_change (tbl) VALUES (TG_TABLE_NAME) RETURNING id INTO appended;
  IF appended % 256 = 0 AND pg_try_advisory_xact_lock(hashtext('muster_list_change')) THEN
    WITH gone AS (DELETE FROM muster_list_change RETURNING tbl)
    INSERT INTO muster_list_version (tbl, n) SELECT tbl, count(*) FROM gone GROUP BY tbl
    ON CONFLICT (tbl) DO UPDATE SET n = muster_list_version.n + excluded.n;
  END IF;
  RETURN NULL;
END
$fn$
--> statement-breakpoint
CREATE TRIGGER "incident_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "incident" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "case_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "case" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "participant_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "participant" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "individual_contact_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "individual_contact" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "project_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "project" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "incident_priority_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "incident_priority" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "incident_severity_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "incident_severity" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "incident_type_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "incident_type" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "case_priority_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "case_priority" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "case_severity_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "case_severity" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
--> statement-breakpoint
CREATE TRIGGER "case_type_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "case_type" FOR EACH STATEMENT EXECUTE FUNCTION muster_list_changed()
